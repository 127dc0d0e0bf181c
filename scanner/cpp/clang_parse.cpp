#include "clang_parse.h"

#include <chrono>

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticLex.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Pragma.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/JSONCompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include "cuda_prelude.h"
#include "root_file_system.h"
#include "engine/file_reader.h"
#include "engine/test_point.h"

namespace mpsready {
namespace {

using namespace clang;
using namespace clang::ast_matchers;

// Positions in the file itself: after the prelude, a #line directive names the file.
struct Locator {
  const SourceManager* sm = nullptr;
  std::string path;

  // Where a reader sees the code: a macro argument at its place in the file, a macro body at
  // the macro's use.
  bool in_file(SourceLocation loc) const {
    if (loc.isInvalid()) return false;
    const PresumedLoc p = sm->getPresumedLoc(sm->getFileLoc(loc));
    return p.isValid() && path == p.getFilename();
  }
  void fill(ClangSite& site, SourceLocation begin, SourceLocation end) const {
    const PresumedLoc b = sm->getPresumedLoc(sm->getFileLoc(begin));
    site.line = static_cast<int>(b.getLine());
    site.byte_column = static_cast<int>(b.getColumn());
    const PresumedLoc e = sm->getPresumedLoc(sm->getFileLoc(end.isValid() ? end : begin));
    site.end_line = e.isValid() ? static_cast<int>(e.getLine()) : site.line;
    site.end_byte_column = e.isValid() ? static_cast<int>(e.getColumn()) : site.byte_column;
  }
};

class Collector : public MatchFinder::MatchCallback {
 public:
  ClangParseResult* out = nullptr;
  Locator* locator = nullptr;

  void run(const MatchFinder::MatchResult& r) override {
    locator->sm = r.SourceManager;
    if (const auto* fn = r.Nodes.getNodeAs<FunctionDecl>("kernel")) {
      if (!locator->in_file(fn->getLocation())) return;
      ClangSite site;
      site.name = fn->getNameAsString();
      site.detail = fn->hasAttr<CUDAGlobalAttr>() ? "global" : "device";
      site.templated = fn->getDescribedFunctionTemplate() != nullptr;
      locator->fill(site, fn->getLocation(), fn->getLocation());
      out->kernels.push_back(std::move(site));
    } else if (const auto* launch = r.Nodes.getNodeAs<CUDAKernelCallExpr>("launch")) {
      if (!locator->in_file(launch->getBeginLoc())) return;
      ClangSite site;
      if (const auto* named = dyn_cast_or_null<NamedDecl>(launch->getCalleeDecl())) {
        site.name = named->getNameAsString();
      } else if (const auto* overloads = dyn_cast<OverloadExpr>(launch->getCallee()->IgnoreImplicit())) {
        site.name = overloads->getName().getAsString();  // a template kernel in a template
      }
      locator->fill(site, launch->getBeginLoc(), launch->getEndLoc());
      out->launches.push_back(std::move(site));
    } else if (const auto* call = r.Nodes.getNodeAs<CallExpr>("call")) {
      if (!locator->in_file(call->getBeginLoc())) return;
      const FunctionDecl* callee = call->getDirectCallee();
      if (!callee) return;
      // With no CUDA SDK in sight, Clang assumes one older than 9.2, whose `<<<...>>>` launches
      // call `cudaConfigureCall` implicitly: a call the file never wrote (the launch is reported;
      // that API was removed from CUDA 9.2 on, so a written call to it is not missed in practice).
      // (getName() is only for plain identifiers: an operator or a lambda's call has none.)
      if (callee->getDeclName().isIdentifier() && callee->getName() == "cudaConfigureCall") return;
      ClangSite site;
      site.name = callee->getQualifiedNameAsString();
      locator->fill(site, call->getBeginLoc(), call->getEndLoc());
      out->calls.push_back(std::move(site));
    } else if (const auto* as = r.Nodes.getNodeAs<AsmStmt>("asm")) {
      if (!locator->in_file(as->getBeginLoc())) return;
      ClangSite site;
      if (const auto* gcc = dyn_cast<GCCAsmStmt>(as)) site.name = gcc->getAsmString()->getString().str();
      locator->fill(site, as->getBeginLoc(), as->getEndLoc());
      out->asm_blocks.push_back(std::move(site));
    }
  }
};

using Deadline = std::optional<std::chrono::steady_clock::time_point>;

// Where the built-in CUDA declarations live in Clang's in-memory file system.
constexpr const char* kPreludePath = "/mpsready/cuda_prelude.h";

// Macro expansions one file may cause. A few lines of `#define X1 X0 X0`, `#define X2 X1 X1`...
// expand to 2^N tokens inside a single declaration, where the deadline check between top-level
// declarations never comes: 4 million expansions took 38 s and 1 GB. Real files without their
// includes stay far below this.
class PreprocessorHooks : public PPCallbacks {
 public:
  PreprocessorHooks(ClangParseResult& out, Locator& locator, Preprocessor& pp, bool tolerant, Deadline deadline)
      : out_(out), locator_(locator), sm_(pp.getSourceManager()), pp_(pp), tolerant_(tolerant), deadline_(deadline) {}

  void InclusionDirective(SourceLocation hash, const Token&, StringRef file_name, bool,
                          CharSourceRange range, const FileEntry* file, StringRef, StringRef,
                          const Module*, SrcMgr::CharacteristicKind) override {
    locator_.sm = &sm_;
    if (!locator_.in_file(hash)) return;
    ClangSite site;
    site.name = file_name.str();
    locator_.fill(site, hash, range.getEnd());
    out_.includes.push_back(std::move(site));
    if (!file || tolerant_) out_.unresolved_includes.push_back(file_name.str());
  }

  void MacroExpands(const Token& name, const MacroDefinition& def, SourceRange range,
                    const MacroArgs*) override {
    const MacroInfo* info = def.getMacroInfo();
    if (!info) return;
    if (over_budget()) {
      // Past the budget or the deadline every macro expands at most once more: undefining it
      // here leaves its later uses, including those in this expansion, as plain identifiers.
      // The parse then finishes quickly and its AST is discarded (`stopped`).
      if (name.getLocation().isValid())
        pp_.appendMacroDirective(name.getIdentifierInfo(),
                                 new (pp_.getPreprocessorAllocator()) UndefMacroDirective(name.getLocation()));
      return;
    }
    locator_.sm = &sm_;
    // Only macros the file defines itself: CHECK_CUDA, LAUNCH wrappers and the like.
    if (!locator_.in_file(info->getDefinitionLoc()) || !locator_.in_file(range.getBegin())) return;
    ClangSite site;
    site.name = name.getIdentifierInfo()->getName().str();
    for (const Token& t : info->tokens()) {
      if (const IdentifierInfo* id = t.getIdentifierInfo()) site.detail += id->getName().str() + " ";
    }
    locator_.fill(site, range.getBegin(), range.getEnd());
    out_.macro_uses.push_back(std::move(site));
  }

 private:
  bool over_budget() {
    if (out_.stopped) return true;
    ++expansions_;
    if (expansions_ > kMaxMacroExpansions) {
      out_.stopped = true;
      out_.stop_reason = ClangStop::macro_expansions;
    } else if ((expansions_ & 1023) == 0 && deadline_ && std::chrono::steady_clock::now() >= *deadline_) {
      out_.stopped = true;  // the clock is read every 1,024 expansions
      out_.stop_reason = ClangStop::time_limit;
    }
    return out_.stopped;
  }

  ClangParseResult& out_;
  Locator& locator_;
  const SourceManager& sm_;
  Preprocessor& pp_;
  bool tolerant_;
  Deadline deadline_;
  uint64_t expansions_ = 0;
};

// Counts errors and keeps going: a parse error never hides findings elsewhere in the file.
class CountingDiagnostics : public DiagnosticConsumer {
 public:
  CountingDiagnostics(ClangParseResult& out, Locator& locator) : out_(out), locator_(locator) {}
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    if (level < DiagnosticsEngine::Error) return;
    // A missing header is expected in tolerant mode; it is listed as unresolved instead.
    if (info.getID() == diag::err_pp_file_not_found) return;
    ++out_.errors;
    if (out_.first_error_line == 0 && info.hasSourceManager() && info.getLocation().isValid()) {
      const PresumedLoc p = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (p.isValid() && locator_.path == p.getFilename()) out_.first_error_line = static_cast<int>(p.getLine());
    }
  }

 private:
  ClangParseResult& out_;
  Locator& locator_;
};

// Passes the AST on to the matchers, but ends the parse at the first top-level declaration past
// the deadline: returning false from HandleTopLevelDecl makes Clang's ParseAST return at once
// (and skip HandleTranslationUnit, so no matcher sees the partial AST).
class DeadlineConsumer : public ASTConsumer {
 public:
  DeadlineConsumer(std::unique_ptr<ASTConsumer> inner, Deadline deadline, ClangParseResult& out)
      : inner_(std::move(inner)), deadline_(deadline), out_(out) {}
  void Initialize(ASTContext& context) override { inner_->Initialize(context); }
  bool HandleTopLevelDecl(DeclGroupRef group) override {
    // Also when the preprocessor stopped expanding macros: the rest of the AST is not faithful.
    if (out_.stopped) return false;
    if (deadline_ && std::chrono::steady_clock::now() >= *deadline_) {
      out_.stopped = true;
      out_.stop_reason = ClangStop::time_limit;
      return false;
    }
    return inner_->HandleTopLevelDecl(group);
  }
  void HandleTranslationUnit(ASTContext& context) override { inner_->HandleTranslationUnit(context); }

 private:
  std::unique_ptr<ASTConsumer> inner_;
  Deadline deadline_;
  ClangParseResult& out_;
};

// Preprocessor keeps its pragma table private and offers no way to reach a handler it registered
// itself. An explicit instantiation may name a private member (access is not checked there), which
// gives a pointer to that member without touching Clang's headers.
using PragmaTable = std::unique_ptr<PragmaNamespace> Preprocessor::*;
PragmaTable pragma_table();
template <PragmaTable Member>
struct PragmaTableAccess {
  friend PragmaTable pragma_table() { return Member; }
};
template struct PragmaTableAccess<&Preprocessor::PragmaHandlers>;

// `#pragma clang __debug crash` (also `parser_crash`, `llvm_fatal_error`, `llvm_unreachable`,
// `overflow_stack`, `assert`, `dump`, …) exists to crash or dump Clang on purpose: a repository
// file must not be able to end the scan with it. Without the handler the pragma is an unknown one,
// ignored like any other.
void remove_debug_pragmas(Preprocessor& pp) {
  PragmaNamespace* root = (pp.*pragma_table()).get();
  PragmaHandler* clang_pragmas = root ? root->FindHandler("clang") : nullptr;
  PragmaNamespace* ns = clang_pragmas ? clang_pragmas->getIfNamespace() : nullptr;
  PragmaHandler* debug = ns ? ns->FindHandler("__debug") : nullptr;
  if (!debug) return;
  pp.RemovePragmaHandler("clang", debug);  // hands the handler back to its caller
  delete debug;
}

class ScanAction : public ASTFrontendAction {
 public:
  ScanAction(MatchFinder& finder, ClangParseResult& out, Locator& locator, bool tolerant, Deadline deadline)
      : finder_(finder), out_(out), locator_(locator), tolerant_(tolerant), deadline_(deadline) {}

  bool BeginInvocation(CompilerInstance& ci) override {
    // Tolerant mode: #includes are not followed, and unresolvable #if conditions take every
    // branch, so the file's own code is all seen.
    if (tolerant_) ci.getPreprocessorOpts().SingleFileParseMode = true;
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef) override {
    ci.getDiagnostics().setClient(new CountingDiagnostics(out_, locator_), true);
    ci.getDiagnostics().setErrorLimit(0);
    // A missing header is fatal by default, which would silence every later diagnostic; as a
    // plain error the parse goes on and the count stays honest.
    ci.getDiagnostics().setSeverity(diag::err_pp_file_not_found, diag::Severity::Error, SourceLocation());
    remove_debug_pragmas(ci.getPreprocessor());
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<PreprocessorHooks>(out_, locator_, ci.getPreprocessor(), tolerant_, deadline_));
    return std::make_unique<DeadlineConsumer>(finder_.newASTConsumer(), deadline_, out_);
  }

 private:
  MatchFinder& finder_;
  ClangParseResult& out_;
  Locator& locator_;
  bool tolerant_;
  Deadline deadline_;
};

}  // namespace

struct ClangParser::State {
  MatchFinder finder;
  Collector collector;
  Locator locator;

  State() {
    collector.locator = &locator;
    // Built once per parser, used for every file it parses.
    finder.addMatcher(functionDecl(isDefinition(), anyOf(hasAttr(attr::CUDAGlobal),
                                                         allOf(hasAttr(attr::CUDADevice),
                                                               unless(hasAttr(attr::CUDAHost)))))
                          .bind("kernel"),
                      &collector);
    finder.addMatcher(cudaKernelCallExpr().bind("launch"), &collector);
    finder.addMatcher(callExpr(unless(cudaKernelCallExpr()), callee(functionDecl())).bind("call"), &collector);
    finder.addMatcher(asmStmt().bind("asm"), &collector);
  }
};

ClangParser::ClangParser() : state_(std::make_unique<State>()) {}
ClangParser::~ClangParser() = default;

ClangParseResult ClangParser::parse(const std::string& path, const std::string& absolute_path,
                                    std::string_view code, bool cuda,
                                    const std::vector<std::string>* compile_args, double time_limit_s,
                                    const std::filesystem::path& root) {
  ClangParseResult result;
  Deadline deadline;
  if (time_limit_s >= 0)
    deadline = std::chrono::steady_clock::now() +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(time_limit_s));
  const bool tolerant = compile_args == nullptr;
  result.mode = tolerant ? "tolerant" : "compile-commands";
  // Tolerant mode names positions with a #line directive; the real mode parses the file under
  // its own absolute name.
  state_->locator = Locator{nullptr, tolerant ? path : absolute_path};
  state_->collector.out = &result;

  std::vector<std::string> args;
  std::string buffer;
  std::string buffer_name;
  // Clang sees no file system but this one: in tolerant mode the file's buffer alone (#includes
  // are never entered, so every one stays unresolved and nothing is even looked up on disk); with
  // a compilation database, the root's files too (see root_file_system.h). Neither holds a host
  // header, a device, a FIFO or anything outside the root, whatever an #include names.
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> files = memory;
  if (tolerant) {
    // No spell checking: without the real headers every unknown name would otherwise start a
    // typo-correction search over all known names (a third of Clang's time on PyTorch's ops
    // files), and a "correction" would invent a call the file does not make.
    args = {"-fsyntax-only", "-std=c++17", "-w", "-ferror-limit=0", "-Wno-everything", "-fno-spell-checking"};
    if (cuda) {
      args.insert(args.begin(), {"-x", "cuda", "-nocudainc", "-nocudalib", "--cuda-host-only"});
      buffer_name = "/mpsready/mpsready-input.cu";
    } else {
      args.insert(args.begin(), {"-x", "c++"});
      buffer_name = "/mpsready/mpsready-input.cpp";
    }
    buffer.reserve(code.size() + 8192);
    buffer.append(cuda_prelude());
    buffer.append("\n#line 1 \"").append(path).append("\"\n");
    buffer.append(code);
    memory->setCurrentWorkingDirectory("/mpsready");
  } else {
    args = *compile_args;
    if (cuda) {
      // No CUDA SDK is visible to Clang (nor any other host file): the built-in declarations
      // stand in for it, as in tolerant mode, from the in-memory file system.
      for (const char* a : {"-nocudainc", "-nocudalib", "--cuda-host-only", "-include", kPreludePath}) args.push_back(a);
      memory->addFile(kPreludePath, 0, llvm::MemoryBuffer::getMemBufferCopy(cuda_prelude(), kPreludePath));
    }
    args.push_back("-fsyntax-only");
    args.push_back("-w");
    args.push_back("-ferror-limit=0");
    buffer.assign(code);
    buffer_name = absolute_path;
    // The file's own bytes (as the scan read them) over the root's other files.
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
        new llvm::vfs::OverlayFileSystem(make_root_file_system(root, kMaxHeaderBytes)));
    overlay->pushOverlay(memory);
    (void)overlay->setCurrentWorkingDirectory(root.string());
    files = overlay;
  }
  memory->addFile(buffer_name, 0, llvm::MemoryBuffer::getMemBufferCopy(buffer, buffer_name));
  auto action = std::make_unique<ScanAction>(state_->finder, result, state_->locator, tolerant, deadline);
  // The return value only says whether errors were reported; the counts say that already.
  test_point("cpp", code);
  (void)clang::tooling::runToolOnCodeWithArgs(std::move(action), buffer, files, args, buffer_name, "mpsready");
  result.ran = true;
  return result;
}

struct CompileCommands::Impl {
  std::unique_ptr<clang::tooling::JSONCompilationDatabase> db;
  std::filesystem::path root;  // canonical: the database names files by their real paths
};

CompileCommands::CompileCommands() : impl_(std::make_unique<Impl>()) {}
CompileCommands::~CompileCommands() = default;

std::unique_ptr<CompileCommands> CompileCommands::load(const std::string& json_path, const std::filesystem::path& root,
                                                       std::string& error) {
  std::string message;
  auto db = clang::tooling::JSONCompilationDatabase::loadFromFile(
      json_path, message, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!db) {
    error = message;
    return nullptr;
  }
  auto out = std::unique_ptr<CompileCommands>(new CompileCommands());
  out->impl_->db = std::move(db);
  out->impl_->root = canonical_root(root);
  return out;
}

std::unique_ptr<CompileCommands> CompileCommands::load_below_root(const std::filesystem::path& root,
                                                                  const std::string& relative, std::string& error) {
  // Component by component with O_NOFOLLOW: a link named `build` (or a linked database) is not
  // followed, so flags from outside the root never steer the parse.
  const ReadResult read = read_file_beneath(root, relative, kMaxDatabaseBytes);
  if (!read.bytes) {
    error = read.error;
    return nullptr;
  }
  std::string message;
  auto db = clang::tooling::JSONCompilationDatabase::loadFromBuffer(*read.bytes, message,
                                                                    clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!db) {
    error = message;
    return nullptr;
  }
  auto out = std::unique_ptr<CompileCommands>(new CompileCommands());
  out->impl_->db = std::move(db);
  out->impl_->root = canonical_root(root);
  return out;
}

std::filesystem::path CompileCommands::canonical_root(const std::filesystem::path& root) {
  std::error_code ec;
  std::filesystem::path c = std::filesystem::canonical(root, ec);
  return ec ? std::filesystem::absolute(root).lexically_normal() : c;
}

const std::filesystem::path& CompileCommands::root() const { return impl_->root; }

std::string CompileCommands::absolute(const std::string& relative) const { return (impl_->root / relative).string(); }

std::optional<CompileFlags> CompileCommands::args_for(const std::string& absolute_path) const {
  const auto commands = impl_->db->getCompileCommands(absolute_path);
  if (commands.empty()) return std::nullopt;
  const auto& command = commands.front();
  return filter_compile_flags(command.CommandLine, command.Directory, command.Filename, impl_->root);
}

}  // namespace mpsready
