; "cuda" if not cpu_only else "cpu", "cpu" if args.cpu else "cuda": a device chosen by a switch
; to the CPU that the user sets. The switch's default gives CUDA, and its other value the CPU;
; nothing gives MPS. A chain that names "mps" anywhere in the expression is left alone.

; "cuda" if <switch> else "cpu"
((conditional_expression
   .
   (string) @dev
   .
   (_) @cond
   .
   (string) @alt
   .) @finding
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#string-match? @alt "^cpu$")
 (#cpu-switch? @cond))

; "cpu" if <switch> else "cuda"
((conditional_expression
   .
   (string) @alt
   .
   (_) @cond
   .
   (string) @dev
   .) @finding
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#string-match? @alt "^cpu$")
 (#cpu-switch? @cond))
