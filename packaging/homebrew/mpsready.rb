# Homebrew formula for mpsready (scanner only; `brew install --HEAD ./packaging/homebrew/mpsready.rb`
# from a checkout, or copy into a tap). Untested: written on Linux, where Homebrew is not
# available; the dependency names follow README "Building by hand" (macOS).
class Mpsready < Formula
  desc "Tells whether a PyTorch repository can move from Linux/CUDA to Apple's MPS backend"
  homepage "https://github.com/your-org/mpsready"
  head "https://github.com/your-org/mpsready.git", branch: "main"
  license "MIT"

  depends_on "cmake" => :build
  depends_on "node" => :build # npm fetches the pinned tree-sitter-python grammar at configure time
  depends_on "pkg-config" => :build
  depends_on "cli11" => :build
  depends_on "nlohmann-json" => :build
  depends_on "tomlplusplus" => :build
  depends_on "libunistring" # NFKC, the form Python gives identifiers
  depends_on "llvm"
  depends_on "re2"
  depends_on "tree-sitter"
  depends_on "yaml-cpp"

  def install
    system "cmake", "-S", ".", "-B", "build", "-DMPSREADY_WITH_TORCH=OFF", "-DMPSREADY_BUILD_TESTS=OFF",
           *std_cmake_args
    system "cmake", "--build", "build", "--target", "mpsready"
    system "cmake", "--install", "build", "--component", "scanner"
  end

  test do
    (testpath/"train.py").write "import torch\nmodel = model.cuda()\n"
    output = shell_output("#{bin}/mpsready scan #{testpath} --format concise")
    assert_match "py-tensor-dot-cuda", output
  end
end
