"""The words the HTML book prints around the chapters, in each edition's language.

Shared by nwhtml-filter.py (code-chunk notes, chunk list, identifier index)
and nwhtml-page.py (title, table of contents).  The PDF book's equivalents
live in book/{en,es}/workbook.tex.
"""

LABELS = {
    "en": {
        "edition": "English edition",
        "title": "The attention workbook",
        "subtitle": "Transformer attention, built in C from a literate book",
        "contents": "Contents",
        "figure": "Figure",
        "table": "Table",
        "chunk": "chunk",
        "chunks": "chunks",
        "and": "and",
        "root": "Root chunk (not used in this document).",
        "file": "This code is written to the file {name}.",
        "used": "This code is used in {chunks}.",
        "continued": "This definition is continued in {chunks}.",
        "continues": "This definition continues {chunks}.",
        "defines": "Defines",
        "uses": "Uses",
        "used_in": "used in {chunks}",
        "never_used": "never used",
        "defined_in": "defined in {chunks}",
        "chunk_list": "Code chunks",
        "chunk_list_intro": "Every named chunk, with the chunks that define it "
                            "(in bold) and the chunks that use it.",
        "index": "Index of identifiers",
        "index_intro": "Every C identifier the library defines, with the chunks "
                       "that define it (in bold) and the chunks that use it.",
    },
    "es": {
        "edition": "Edición en español",
        "title": "El cuaderno de la atención",
        "subtitle": "La atención de los transformers, construida en C "
                    "a partir de un libro de programación literaria",
        "contents": "Índice general",
        "figure": "Figura",
        "table": "Tabla",
        "chunk": "el fragmento",
        "chunks": "los fragmentos",
        "and": "y",
        "root": "Fragmento raíz (no se usa en este documento).",
        "file": "Este código se escribe en el archivo {name}.",
        "used": "Este código se usa en {chunks}.",
        "continued": "Esta definición continúa en {chunks}.",
        "continues": "Esta definición prolonga {chunks}.",
        "defines": "Define",
        "uses": "Usa",
        "used_in": "usado en {chunks}",
        "never_used": "nunca usado",
        "defined_in": "definido en {chunks}",
        "chunk_list": "Fragmentos de código",
        "chunk_list_intro": "Cada fragmento con nombre, con los fragmentos que lo "
                            "definen (en negrita) y los que lo usan.",
        "index": "Índice de identificadores",
        "index_intro": "Cada identificador de C que define la biblioteca, con los "
                       "fragmentos que lo definen (en negrita) y los que lo usan.",
    },
}
