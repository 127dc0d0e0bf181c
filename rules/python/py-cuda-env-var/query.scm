; A CUDA / NCCL environment variable used as a key of os.environ.

; os.environ["CUDA_VISIBLE_DEVICES"] = "0"   x = os.environ["NCCL_DEBUG"]   del os.environ[...]
((subscript
   value: (attribute attribute: (identifier) @env)
   subscript: (string) @finding)
 (#eq? @env "environ")
 (#string-match? @finding "^(CUDA|NCCL|PYTORCH_CUDA|TORCH_NCCL|CUBLAS|CUDNN)_[A-Z0-9_]+$"))

; from os import environ; environ["CUDA_VISIBLE_DEVICES"]
((subscript
   value: (identifier) @env
   subscript: (string) @finding)
 (#eq? @env "environ")
 (#string-match? @finding "^(CUDA|NCCL|PYTORCH_CUDA|TORCH_NCCL|CUBLAS|CUDNN)_[A-Z0-9_]+$"))

; "CUDA_VISIBLE_DEVICES" in os.environ
((comparison_operator
   (string) @finding
   [
     (attribute attribute: (identifier) @env)
     (identifier) @env
   ])
 (#eq? @env "environ")
 (#string-match? @finding "^(CUDA|NCCL|PYTORCH_CUDA|TORCH_NCCL|CUBLAS|CUDNN)_[A-Z0-9_]+$"))

; env={**os.environ, "CUDA_VISIBLE_DEVICES": "1"}   os.environ.update({"NCCL_DEBUG": "INFO"})
((pair
   key: (string) @finding)
 (#string-match? @finding "^(CUDA|NCCL|PYTORCH_CUDA|TORCH_NCCL|CUBLAS|CUDNN)_[A-Z0-9_]+$"))
