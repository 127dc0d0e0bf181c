; self.register_buffer("adj", adj.to_sparse()) / register_buffer("a", torch.sparse_coo_tensor(...))
((call
   function: (attribute attribute: (identifier) @method)
   arguments: (argument_list
     (_)
     .
     (call function: (_) @make) @finding))
 (#eq? @method "register_buffer")
 (#match? @make "(\\.to_sparse(_csr|_coo)?|sparse_coo_tensor|sparse_csr_tensor)$"))

; self.adj = nn.Parameter(x.to_sparse()) / self.adj = adj.to_sparse() in a module's __init__
((function_definition
   name: (identifier) @fn
   body: (block
     (expression_statement
       (assignment
         left: (attribute object: (identifier) @obj)
         right: (call function: (_) @make) @finding))))
 (#eq? @fn "__init__")
 (#eq? @obj "self")
 (#match? @make "(\\.to_sparse(_csr|_coo)?|sparse_coo_tensor|sparse_csr_tensor)$"))
