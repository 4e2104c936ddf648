Mac resource fork
