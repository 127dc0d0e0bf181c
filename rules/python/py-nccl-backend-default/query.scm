; A setting whose name says backend, set to "nccl": `backend = "nccl"`, `args.dist_backend =
; 'nccl'`, a dataclass field `distributed_backend: str = "nccl"`. Informational: the call that
; creates the process group is reported by py-nccl-backend when it names NCCL itself.
((assignment
   left: [
     (identifier) @n
     (attribute attribute: (identifier) @n)
   ]
   right: (string) @finding)
 (#match? @n "(?i)backend")
 (#string-match? @finding "(?i)^nccl$"))

; assert backend == "nccl"
((assert_statement
   .
   (comparison_operator (string) @s) @finding)
 (#string-match? @s "(?i)^nccl$")
 (#match? @finding "=="))
