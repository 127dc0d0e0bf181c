; if torch.cuda.is_available():
;     device = torch.device("cuda")
; else:
;     device = torch.device("cpu")
; The statement form of `"cuda" if torch.cuda.is_available() else "cpu"`: a CUDA check whose
; branch sets a name to CUDA, immediately followed by an `else` (no `elif`) that sets the same name
; to the CPU, each branch that one assignment alone.
((if_statement
   condition: (_) @check
   consequence: (block . (expression_statement (assignment left: (_) @target right: (_) @dev)) .)
   .
   alternative: (else_clause
                  body: (block . (expression_statement (assignment left: (_) @other right: (_) @alt)) .)) .) @finding
 (#eq? @target @other)
 (#needs-cuda? @check)
 (#match? @dev "^(torch\\.device\\()?[\"']cuda(:[0-9]+)?[\"']\\)?$")
 (#match? @alt "^(torch\\.device\\()?[\"']cpu[\"']\\)?$"))
