"""ossa.Mix: a mix (the mix file's JSON as a dict, see include/ossa/mix.h) prepared for a model.

The dict is written as JSON text and read by the C library's mix file reader, so a dict is held
to exactly the rules of a mix file: unknown keys are warnings, bad values raise ossa.Error with
their JSON path. Only what JSON text cannot carry is checked here first (NaN and infinities,
values of other types, keys that are not strings), with the path of the offending value."""

import ctypes
import json
import math
import warnings
import weakref
from collections.abc import Mapping

import numpy as np

from . import _lib
from ._error import Error

lib = _lib.lib


class MixWarning(UserWarning):
    """A harmless problem of a mix (an unknown key, a value that is ignored): the mix is used
    without it. The message is ``PATH: MESSAGE``; Mix.warnings lists them as pairs."""


def _child(path, key):
    return f"{path}.{key}" if path else str(key)


# Deeper than any mix value (a mix file nests at most five levels), well inside the JSON reader's
# limit and Python's recursion limit.
_MAX_DEPTH = 64


def _json_value(value, path, depth=0):
    """`value` as what json.dumps writes (numbers of NumPy as Python numbers, tuples and arrays as
    lists, integer keys as their digits, which is how a mask's "indices" names nodes); ossa.Error
    with the path of anything JSON text cannot hold."""
    if depth > _MAX_DEPTH:
        raise Error(f"nested more than {_MAX_DEPTH} levels deep (no mix value is)", path=path,
                    code=_lib.ERROR_INVALID)
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            raise Error("must be a finite number", path=path, code=_lib.ERROR_INVALID)
        return float(value)
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if isinstance(key, (int, np.integer)) and not isinstance(key, (bool, np.bool_)):
                key = str(int(key))
            elif not isinstance(key, str):
                raise Error(f"the key {key!r} is not a string", path=path,
                            code=_lib.ERROR_INVALID)
            if key in out:  # 3 and "3"
                raise Error(f"the key {key!r} is given twice", path=path,
                            code=_lib.ERROR_INVALID)
            out[key] = _json_value(item, _child(path, key), depth + 1)
        return out
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_json_value(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value)]
    raise Error(f"a {type(value).__name__} is not a JSON value", path=path,
                code=_lib.ERROR_INVALID)


def _free(mix, file):
    lib.ossa_mix_free(mix)
    lib.ossa_mix_file_free(file)


class Mix:
    """A mix prepared for one model (Model.prepare_mix): read-only, any number of threads may
    sample it at once. Model.mix(mix, times) or mix.sample(times) plays it.

    Attributes: model, description (the mix as a plain dict, as given to the C library),
    layer_count, root_motion (True when the mix has "root_motion": its poses keep that node in
    place and Pose.root_motion carries its travel), warnings (list of (JSON path, message) the
    reader found; each was also issued as a Python warning of category ossa.MixWarning)."""

    def __init__(self):
        raise TypeError("use model.prepare_mix(mix_dict)")

    @classmethod
    def _prepare(cls, model, mix, stacklevel):
        if not isinstance(mix, Mapping):
            raise TypeError(f"a mix is a dict (the mix file's JSON), not a "
                            f"{type(mix).__name__}")
        description = _json_value(mix, "")
        text = json.dumps(description, allow_nan=False).encode()
        file, prepared, error = ctypes.c_void_p(), ctypes.c_void_p(), _lib.ErrorStruct()
        with model._using() as handle:
            if lib.ossapy_mix_prepare(handle, text, len(text), ctypes.byref(file),
                                      ctypes.byref(prepared), ctypes.byref(error)):
                raise Error._from_c(error)
        self = cls.__new__(cls)
        # The file stays with the mix: its "root_motion" and "ik" are applied at every time.
        self._handle, self._file = prepared.value, file.value
        self._finalizer = weakref.finalize(self, _free, self._handle, self._file)
        self.warnings = []
        for i in range(lib.ossa_mix_file_warning_count(file)):
            w = lib.ossa_mix_file_warning(file, i).contents
            self.warnings.append((w.path.decode("utf-8", "replace"),
                                  w.message.decode("utf-8", "replace")))
        self.model = model  # the mix points at the model's rig and clips: keep it alive
        self.description = description
        self.layer_count = lib.ossa_mix_layer_count(self._handle)
        self.root_motion = bool(lib.ossa_mix_file_root_motion(self._file))
        for path, message in self.warnings:
            warnings.warn(f"{path}: {message}" if path else message, MixWarning,
                          stacklevel=stacklevel + 1)
        return self

    def __repr__(self):
        return f"<ossa.Mix of {self.layer_count} layer(s) for {self.model.file!r}>"

    def sample(self, times):
        """Model.mix(self, times)."""
        return self.model.mix(self, times)
