"""The words the HTML book prints around the chapters, in each edition's language.

Shared by nwhtml-filter.py (code-chunk notes, chunk list, identifier index)
and nwhtml-page.py (title, contents, navigation, language switch, PDF link).  The PDF book's equivalents
live in book/{en,es}/workbook.tex.
"""

LABELS = {
    "en": {
        "edition": "English edition",
        "language": "English",
        "in_language": "This section in English",
        "page_in_language": "This page in English",
        "title_page": "Title page and contents",
        "previous": "Previous",
        "next": "Next",
        "pdf": "PDF of this book",
        "anchor": "Link to this section",
        "skip": "Skip to the text",
        "title": "The attention workbook",
        "subtitle": "Transformer attention, built in C from a literate book",
        "contents": "Contents",
        "figure": "Figure",
        "table": "Table",
        "chunk": "chunk",
        "chunks": "chunks",
        "and": "and",
        "root": "No other chunk uses this code, and it is written to no file.",
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
        "language": "Español",
        "in_language": "Esta sección en español",
        "page_in_language": "Esta página en español",
        "title_page": "Portada e índice",
        "previous": "Anterior",
        "next": "Siguiente",
        "pdf": "PDF de este libro",
        "anchor": "Enlace a esta sección",
        "skip": "Saltar al texto",
        "title": "El cuaderno de la atención",
        "subtitle": "La atención de los transformers, construida en C "
                    "a partir de un libro de programación literaria",
        "contents": "Índice general",
        "figure": "Figura",
        "table": "Tabla",
        "chunk": "el fragmento",
        "chunks": "los fragmentos",
        "and": "y",
        "root": "Ningún otro fragmento usa este código, y no se escribe en ningún archivo.",
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
