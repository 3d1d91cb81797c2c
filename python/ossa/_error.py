"""ossa.Error: what the library refuses, with the file and the JSON path it concerns."""

from . import _lib


class Error(Exception):
    """A refusal of the library (a file that cannot be loaded, an argument it does not accept).

    Attributes: ``file`` (the model's file name, "" when unknown), ``path`` (the JSON path of
    the offending value, e.g. ``animations[0].samplers[2].input``, "" for the whole file),
    ``message`` (what is wrong), ``code`` (the C library's ossa_result) and ``kind`` (its name,
    e.g. "invalid glTF"). ``str(error)`` is ``FILE: PATH: MESSAGE`` without the empty parts, as
    the C library's ossa_error_format writes it."""

    def __init__(self, message, file="", path="", code=_lib.ERROR_ARGUMENT):
        self.message = message
        self.file = file
        self.path = path
        self.code = code
        name = _lib.lib.ossa_result_name(code)
        self.kind = name.decode() if name else str(code)
        super().__init__(": ".join(part for part in (file, path, message) if part))

    @classmethod
    def _from_c(cls, error, file=""):
        """The error a C call filled; `file` stands in when the C error names none."""
        def text(field):
            return field.decode("utf-8", "replace")
        return cls(text(error.message), text(error.file) or file, text(error.path), error.code)
