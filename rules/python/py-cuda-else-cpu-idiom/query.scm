; "cuda" if <CUDA check> else "cpu": the only fallback is the CPU, never MPS.
; @ctx is the expression's parent: a chain that tests MPS before CUDA
; ("mps" if mps_ok else "cuda" if cuda_ok else "cpu") mentions "mps" there and is left alone.

; "cuda" if torch.cuda.is_available() else "cpu"
((_
   (conditional_expression
     .
     (string) @dev
     .
     (_) @cond
     .
     (_) @alt
     .) @finding) @ctx
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#cuda-check? @cond)
 (#match? @alt "(?i)cpu")
 (#not-mentions? @alt "mps")
 (#not-mentions? @ctx "mps"))

; torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
((_
   (conditional_expression
     .
     (call
       function: (_) @fn
       arguments: (argument_list . (string) @dev))
     .
     (_) @cond
     .
     (_) @alt
     .) @finding) @ctx
 (#resolves-to? @fn "torch.device")
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#cuda-check? @cond)
 (#match? @alt "(?i)cpu")
 (#not-mentions? @alt "mps")
 (#not-mentions? @ctx "mps"))

; "cpu" if not torch.cuda.is_available() else "cuda"
((_
   (conditional_expression
     .
     (_) @alt
     .
     (not_operator argument: (_) @cond)
     .
     (string) @dev
     .) @finding) @ctx
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#cuda-check? @cond)
 (#match? @alt "(?i)cpu")
 (#not-mentions? @alt "mps")
 (#not-mentions? @ctx "mps"))
