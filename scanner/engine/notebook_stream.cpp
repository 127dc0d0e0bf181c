#include "engine/notebook_stream.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace mpsready {
namespace {

using json = nlohmann::json;

// Keeps `cells[i].cell_type` and `cells[i].source`; everything else is only counted in depth.
class CellSax final : public json::json_sax_t {
 public:
  explicit CellSax(uintmax_t max_code) : max_code_(max_code) {}

  bool null() override { return scalar("null"); }
  bool boolean(bool v) override { return scalar(v ? "true" : "false"); }
  bool number_integer(number_integer_t v) override { return scalar(std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return scalar(std::to_string(v)); }
  bool number_float(number_float_t, const string_t&) override { return scalar("0"); }
  bool binary(binary_t&) override { return scalar("null"); }

  bool string(string_t& v) override {
    if (depth_ == 3 && in_cells_ && key_ == "cell_type") {
      cell_type_ = v;
      type_is_string_ = true;
    } else if (depth_ == 3 && in_cells_ && key_ == "source") {
      append_source(json(v).dump());
    } else if (depth_ == 4 && in_cells_ && in_source_array_) {
      if (!source_.empty()) source_ += ',';
      append_source(json(v).dump());
    } else if (depth_ == 2 && in_cells_) {
      cell_kind_ = "0";  // a cell that is a string: not an object
      end_cell();
    }
    return true;
  }

  bool start_object(std::size_t) override {
    if (depth_ == 2 && in_cells_) begin_cell(true);
    else if (depth_ == 3 && in_cells_ && key_ == "source") source_kind_ = "0";
    else if (depth_ == 4 && in_source_array_) source_entry("null");
    ++depth_;
    return true;
  }
  bool end_object() override {
    --depth_;
    if (depth_ == 2 && in_cells_) end_cell();
    return true;
  }
  bool start_array(std::size_t) override {
    if (depth_ == 1 && key_ == "cells") {
      in_cells_ = true;
      saw_cells_ = true;
    } else if (depth_ == 2 && in_cells_) {
      begin_cell(false);
    } else if (depth_ == 3 && in_cells_ && key_ == "source") {
      in_source_array_ = true;
      source_kind_ = "array";
    } else if (depth_ == 4 && in_source_array_) {
      source_entry("null");
    }
    ++depth_;
    return true;
  }
  bool end_array() override {
    --depth_;
    if (depth_ == 1 && in_cells_) in_cells_ = false;
    else if (depth_ == 3 && in_source_array_) in_source_array_ = false;
    else if (depth_ == 2 && in_cells_) end_cell();
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ <= 3) key_ = k;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    error_ = e.id == 406 ? "not a valid notebook: a number in its JSON is out of range"
                         : "not a valid notebook: JSON error at byte " + std::to_string(position);
    return false;
  }

  std::string result() const {
    return saw_cells_ ? "{\"cells\": [" + cells_ + "], \"nbformat\": 4}" : "{\"nbformat\": 4}";
  }
  const std::string& error() const { return error_; }
  uintmax_t code_bytes() const { return code_bytes_; }
  bool over() const { return code_bytes_ > max_code_; }

 private:
  bool scalar(const std::string& text) {
    if (depth_ == 2 && in_cells_) {
      cell_kind_ = text;  // a cell that is not an object
      end_cell();
    } else if (depth_ == 3 && in_cells_ && key_ == "cell_type") {
      type_is_string_ = false;
    } else if (depth_ == 3 && in_cells_ && key_ == "source") {
      source_kind_ = "0";
    } else if (depth_ == 4 && in_source_array_) {
      source_entry("null");
    }
    return true;
  }
  void begin_cell(bool object) {
    cell_kind_ = object ? "object" : "[]";
    key_.clear();  // the previous cell's last key must not name this cell's values
    cell_type_.clear();
    type_is_string_ = false;
    source_.clear();
    source_kind_.clear();
    oversized_ = false;
  }
  void source_entry(const char* placeholder) {
    if (!source_.empty()) source_ += ',';
    source_ += placeholder;
  }
  void append_source(const std::string& quoted) {
    if (source_kind_.empty()) source_kind_ = "string";
    // One cell's source is held until the cell ends (its type may come after it); past the
    // limit it is dropped, and the cell counts as over the limit if it is a code cell.
    pending_bytes_ += quoted.size();
    if (oversized_ || source_.size() + quoted.size() > max_code_ + 2) {
      oversized_ = true;
      source_.clear();
      return;
    }
    source_ += quoted;
  }
  void end_cell() {
    if (!cells_.empty()) cells_ += ',';
    if (cell_kind_ != "object") {
      cells_ += cell_kind_;
    } else {
      cells_ += "{\"cell_type\": ";
      cells_ += type_is_string_ ? json(cell_type_).dump() : "null";
      const bool code = type_is_string_ && cell_type_ == "code";
      if (code) {
        code_bytes_ += pending_bytes_;
        if (oversized_) code_bytes_ = std::max<uintmax_t>(code_bytes_, max_code_ + 1);
        if (source_kind_ == "string") cells_ += ", \"source\": " + source_;
        else if (source_kind_ == "array") cells_ += ", \"source\": [" + source_ + "]";
        else if (!source_kind_.empty()) cells_ += ", \"source\": 0";
      }
      cells_ += "}";
    }
    pending_bytes_ = 0;
    cell_kind_.clear();
    source_.clear();
    in_source_array_ = false;
  }

  uintmax_t max_code_;
  int depth_ = 0;
  std::string key_;
  bool in_cells_ = false, saw_cells_ = false, in_source_array_ = false;
  std::string cell_kind_, cell_type_, source_, source_kind_;
  bool type_is_string_ = false, oversized_ = false;
  uintmax_t pending_bytes_ = 0, code_bytes_ = 0;
  std::string cells_;
  std::string error_;
};

}  // namespace

bool is_notebook_file(std::string_view path) {
  return path.size() >= 6 && path.substr(path.size() - 6) == ".ipynb";
}

uintmax_t notebook_file_limit(uintmax_t max_file_size) {
  return max_file_size > (UINTMAX_MAX >> 6) ? UINTMAX_MAX : max_file_size << 6;
}

NotebookStream stream_notebook(const std::string& path, uintmax_t max_file_size) {
  NotebookStream out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    out.error = errno == ELOOP ? "became a symbolic link during the scan; not followed"
                               : std::string("cannot be read: ") + std::strerror(errno);
    return out;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    out.error = "not a regular file";
    return out;
  }
  if (static_cast<uintmax_t>(st.st_size) > notebook_file_limit(max_file_size)) {
    ::close(fd);
    out.error = "grew beyond the size limit during the scan";
    return out;
  }
  std::FILE* file = ::fdopen(fd, "rb");
  if (!file) {
    ::close(fd);
    out.error = std::string("cannot be read: ") + std::strerror(errno);
    return out;
  }
  CellSax sax(max_file_size);
  const bool ok = json::sax_parse(file, &sax);
  std::fclose(file);
  if (!ok) {
    out.error = sax.error().empty() ? "not a valid notebook" : sax.error();
    return out;
  }
  if (sax.over()) {
    out.skipped = "code cells larger than the size limit (" + std::to_string(sax.code_bytes()) + " > " +
                  std::to_string(max_file_size) + " bytes; see --max-file-size)";
    return out;
  }
  out.reduced = sax.result();
  return out;
}

}  // namespace mpsready
