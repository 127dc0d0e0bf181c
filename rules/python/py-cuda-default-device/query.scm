; An overridable default of "cuda" / "cuda:N": a parameter default or an annotated field in a
; class body (dataclass, pydantic model, config class).

; def train(device="cuda")   lambda device="cuda": ...
((default_parameter
   value: (string) @finding)
 (#string-match? @finding "^cuda(:([0-9]+|\\{\\}))?$"))

; def train(device: str = "cuda:0")
((typed_default_parameter
   value: (string) @finding)
 (#string-match? @finding "^cuda(:([0-9]+|\\{\\}))?$"))

; def load(device=torch.device("cuda")) / (device: torch.device = torch.device("cuda:0"))
((default_parameter
   value: (call
     function: (_) @callee
     arguments: (argument_list . (string) @device)) @finding)
 (#resolves-to? @callee "torch.device")
 (#string-match? @device "^cuda(:([0-9]+|\\{\\}))?$"))

((typed_default_parameter
   value: (call
     function: (_) @callee
     arguments: (argument_list . (string) @device)) @finding)
 (#resolves-to? @callee "torch.device")
 (#string-match? @device "^cuda(:([0-9]+|\\{\\}))?$"))

; class Config: device: str = "cuda"
((class_definition
   body: (block
     (expression_statement
       (assignment
         left: (identifier)
         type: (_)
         right: (string) @finding))))
 (#string-match? @finding "^cuda(:([0-9]+|\\{\\}))?$"))

; device = "cuda" at module level in a script that overrides its globals from a config file or the
; command line (`exec(open(config).read())`, `globals().update(...)`, `globals()[k] = v`,
; `fire.Fire(...)`): a configurable default, like an argparse default.
((module
   (expression_statement
     (assignment
       left: (identifier) @n
       !type
       right: (string) @finding))) @script
 (#match? @n "(?i)device")
 (#string-match? @finding "^cuda(:([0-9]+|\\{\\}))?$")
 (#match? @script "exec\\(open\\(|globals\\(\\)\\s*\\[|globals\\(\\)\\.update\\(|fire\\.Fire\\("))
