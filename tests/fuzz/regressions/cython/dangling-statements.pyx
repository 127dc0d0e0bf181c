from cuda.bindings cimport
cimport
cdef extern from
