//! PMN reader and writer (syntax only).
