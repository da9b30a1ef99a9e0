//! Dimension numbers of library ops (dot_general, convolution), parsed once from an op's attributes.
