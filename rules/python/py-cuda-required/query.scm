; Code that stops the program when CUDA is absent.

; assert torch.cuda.is_available()   assert x.is_cuda, "..."   assert torch.cuda.device_count() >= 2
((assert_statement
   .
   [
     (call)
     (attribute)
     (identifier)
     (comparison_operator)
     (boolean_operator)
   ] @cond) @finding
 (#cuda-check? @cond)
 (#mentions? @cond "cuda")
 (#not-mentions? @cond "mps")
 (#not-match? @cond "!=|\\bnot\\b"))

; if not torch.cuda.is_available(): raise ...
((if_statement
   condition: (not_operator argument: (_) @cond)
   consequence: (block (raise_statement) @r) @body) @finding
 (#not-mentions? @body "mps")
 (#not-match? @r "(?i)skip")
 (#cuda-check? @cond)
 (#mentions? @cond "cuda")
 (#not-mentions? @cond "mps"))

; if not torch.cuda.is_available(): sys.exit(...)
((if_statement
   condition: (not_operator argument: (_) @cond)
   consequence: (block (expression_statement (call function: (_) @exit))) @body) @finding
 (#not-mentions? @body "mps")
 (#cuda-check? @cond)
 (#mentions? @cond "cuda")
 (#not-mentions? @cond "mps")
 (#match? @exit "^(sys\\.exit|exit|quit|os\\._exit)$"))

; elif not torch.cuda.is_available(): raise ...
((elif_clause
   condition: (not_operator argument: (_) @cond)
   consequence: (block (raise_statement) @r) @body) @finding
 (#not-mentions? @body "mps")
 (#not-match? @r "(?i)skip")
 (#cuda-check? @cond)
 (#mentions? @cond "cuda")
 (#not-mentions? @cond "mps"))

; if torch.cuda.device_count() == 0: raise ...   if torch.cuda.device_count() < 2: raise ...
((if_statement
   condition: (comparison_operator) @cond
   consequence: (block (raise_statement) @r) @body) @finding
 (#not-mentions? @body "mps")
 (#not-match? @r "(?i)skip")
 (#cuda-check? @cond)
 (#match? @cond "cuda\\.device_count\\(\\)\\s*(==|<)"))
