; "cuda" if <CUDA check> else "cpu": the only fallback is the CPU, never MPS.
; Three forms of the expression ("cuda" if c else "cpu", torch.device("cuda") if c else
; torch.device("cpu"), "cpu" if not c else "cuda"), each in up to three places:
;  1. any parent except an argument list, parentheses or an f-string interpolation;
;  2. an argument of a call that is not a print or log call;
;  3. inside parentheses.
;  A `map_location=` value is left alone: loading onto the CPU on a Mac is fine, the model is
;  moved to its device afterwards.
;  A membership test of a device the user chose (`"cuda" if "cuda" in device else "cpu"`, the
;  autocast device type derived from it) is no availability test: the device itself may be mps.
; @ctx is the surrounding node: a chain that tests MPS first ("mps" if m else "cuda" if c else
; "cpu") mentions "mps" there and is left alone.

; "cuda" if torch.cuda.is_available() else "cpu": assigned, returned, a keyword or default value, ...
((_
   (conditional_expression
     .
     (string) @dev
     .
     (_) @cond
     .
     (_) @alt
     .) @finding) @ctx
 (#not-match? @ctx "^[({]")
 (#not-match? @ctx "^map_location\\s*=")
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#cuda-check? @cond)
 (#not-match? @cond "^[\"']cuda[\"']\\s+(not\\s+)?in\\s")
 (#match? @alt "(?i)cpu")
 (#not-mentions? @alt "mps")
 (#not-mentions? @ctx "mps"))

; "cuda" if torch.cuda.is_available() else "cpu": an argument of a call other than print / logging
((call
   function: (_) @callee
   arguments: (argument_list
     (conditional_expression
       .
       (string) @dev
       .
       (_) @cond
       .
       (_) @alt
       .) @finding) @ctx)
 (#not-match? @callee "(?i)^(print|pprint|warnings\\.warn|click\\.echo|typer\\.echo)$|\\.(debug|info|warning|warn|error|critical|exception|log|echo|write|set_description|set_postfix)$")
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#cuda-check? @cond)
 (#not-match? @cond "^[\"']cuda[\"']\\s+(not\\s+)?in\\s")
 (#match? @alt "(?i)cpu")
 (#not-mentions? @alt "mps")
 (#not-mentions? @ctx "mps"))

; ("cuda" if torch.cuda.is_available() else "cpu")
((_
   (parenthesized_expression
     (conditional_expression
       .
       (string) @dev
       .
       (_) @cond
       .
       (_) @alt
       .) @finding)) @ctx
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#cuda-check? @cond)
 (#not-match? @cond "^[\"']cuda[\"']\\s+(not\\s+)?in\\s")
 (#match? @alt "(?i)cpu")
 (#not-mentions? @alt "mps")
 (#not-mentions? @ctx "mps"))

; torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu"): assigned, returned, a keyword or default value, ...
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
 (#not-match? @ctx "^[({]")
 (#resolves-to? @fn "torch.device")
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#cuda-check? @cond)
 (#not-match? @cond "^[\"']cuda[\"']\\s+(not\\s+)?in\\s")
 (#match? @alt "(?i)cpu")
 (#not-mentions? @alt "mps")
 (#not-mentions? @ctx "mps"))

; torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu"): an argument of a call other than print / logging
((call
   function: (_) @callee
   arguments: (argument_list
     (conditional_expression
       .
       (call
         function: (_) @fn
         arguments: (argument_list . (string) @dev))
       .
       (_) @cond
       .
       (_) @alt
       .) @finding) @ctx)
 (#not-match? @callee "(?i)^(print|pprint|warnings\\.warn|click\\.echo|typer\\.echo)$|\\.(debug|info|warning|warn|error|critical|exception|log|echo|write|set_description|set_postfix)$")
 (#resolves-to? @fn "torch.device")
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#cuda-check? @cond)
 (#not-match? @cond "^[\"']cuda[\"']\\s+(not\\s+)?in\\s")
 (#match? @alt "(?i)cpu")
 (#not-mentions? @alt "mps")
 (#not-mentions? @ctx "mps"))

; (torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu"))
((_
   (parenthesized_expression
     (conditional_expression
       .
       (call
         function: (_) @fn
         arguments: (argument_list . (string) @dev))
       .
       (_) @cond
       .
       (_) @alt
       .) @finding)) @ctx
 (#resolves-to? @fn "torch.device")
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#cuda-check? @cond)
 (#not-match? @cond "^[\"']cuda[\"']\\s+(not\\s+)?in\\s")
 (#match? @alt "(?i)cpu")
 (#not-mentions? @alt "mps")
 (#not-mentions? @ctx "mps"))

; "cpu" if not torch.cuda.is_available() else "cuda": assigned, returned, a keyword or default value, ...
((_
   (conditional_expression
     .
     (_) @alt
     .
     (not_operator argument: (_) @cond)
     .
     (string) @dev
     .) @finding) @ctx
 (#not-match? @ctx "^[({]")
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#cuda-check? @cond)
 (#not-match? @cond "^[\"']cuda[\"']\\s+(not\\s+)?in\\s")
 (#match? @alt "(?i)cpu")
 (#not-mentions? @alt "mps")
 (#not-mentions? @ctx "mps"))

; "cpu" if not torch.cuda.is_available() else "cuda": an argument of a call other than print / logging
((call
   function: (_) @callee
   arguments: (argument_list
     (conditional_expression
       .
       (_) @alt
       .
       (not_operator argument: (_) @cond)
       .
       (string) @dev
       .) @finding) @ctx)
 (#not-match? @callee "(?i)^(print|pprint|warnings\\.warn|click\\.echo|typer\\.echo)$|\\.(debug|info|warning|warn|error|critical|exception|log|echo|write|set_description|set_postfix)$")
 (#string-match? @dev "^cuda(:([0-9]+|\\{\\}))?$")
 (#cuda-check? @cond)
 (#not-match? @cond "^[\"']cuda[\"']\\s+(not\\s+)?in\\s")
 (#match? @alt "(?i)cpu")
 (#not-mentions? @alt "mps")
 (#not-mentions? @ctx "mps"))
