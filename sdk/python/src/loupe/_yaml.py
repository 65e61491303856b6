"""A small YAML subset reader for ``dataset.yaml`` (the standard library has no YAML).

Understood::

    # comments
    name: plain or 'single' or "double" quoted
    class_names: [cat, dog, "hot dog"]      # flow lists
    value_names:                            # block lists
      - width
      - height
    label_map:                              # a nested mapping (one level)
      0: background
      1: road
    other: {0: a, 1: b}                     # flow mappings

Scalars become int, float, bool (true/false/yes/no), None (null, ~, empty) or str. Anything else
raises :class:`YamlError` naming the line.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Tuple

_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")


class YamlError(ValueError):
    """The text is outside the YAML subset this reader understands."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}")


def _strip_comment(text: str) -> str:
    """Drops a `# comment` that is outside quotes and starts the line or follows a space."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
    return text.rstrip()


def _scalar(text: str, line: int) -> Any:
    text = text.strip()
    if not text or text in ("~", "null", "Null", "NULL"):
        return None
    if text[0] in "'\"":
        quote = text[0]
        if len(text) < 2 or text[-1] != quote:
            raise YamlError(line, f"unterminated string {text}")
        body = text[1:-1]
        if quote == "'":
            return body.replace("''", "'")
        return (
            body.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")
        )
    lower = text.lower()
    if lower in ("true", "yes"):
        return True
    if lower in ("false", "no"):
        return False
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def _split_flow(text: str, line: int) -> List[str]:
    """Splits `a, "b, c", d` at commas outside quotes."""
    parts: List[str] = []
    current = ""
    quote = ""
    for ch in text:
        if quote:
            current += ch
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            current += ch
        elif ch == ",":
            parts.append(current)
            current = ""
        elif ch in "[]{}":
            raise YamlError(line, "nested collections are not supported")
        else:
            current += ch
    if quote:
        raise YamlError(line, "unterminated string")
    if current.strip() or parts:
        parts.append(current)
    return [p.strip() for p in parts]


def _key_value(text: str, line: int) -> Tuple[str, str]:
    """Splits `key: value` at the first colon followed by a space or the end, outside quotes."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == ":" and (i + 1 == len(text) or text[i + 1] in " \t"):
            key = _scalar(text[:i], line)
            if key is None:
                raise YamlError(line, "empty key")
            return str(key), text[i + 1 :].strip()
    raise YamlError(line, f"expected `key: value`, got {text!r}")


def _value(text: str, line: int) -> Any:
    if text.startswith("["):
        if not text.endswith("]"):
            raise YamlError(line, "a flow list must end with ] on the same line")
        return [_scalar(p, line) for p in _split_flow(text[1:-1], line)]
    if text.startswith("{"):
        if not text.endswith("}"):
            raise YamlError(line, "a flow mapping must end with } on the same line")
        result: Dict[str, Any] = {}
        for part in _split_flow(text[1:-1], line):
            key, value = _key_value(part, line)
            result[key] = _scalar(value, line)
        return result
    if text.startswith(("|", ">", "&", "*", "!")):
        raise YamlError(line, f"{text[0]!r} is not supported here")
    return _scalar(text, line)


def loads(text: str) -> Dict[str, Any]:
    """Parses the subset described in the module docstring into a dict."""
    lines: List[Tuple[int, int, str]] = []  # (line number, indent, content)
    for number, raw in enumerate(text.splitlines(), start=1):
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise YamlError(number, "indent with spaces, not tabs")
        content = _strip_comment(raw)
        if not content.strip() or content.strip() in ("---", "..."):
            continue
        lines.append((number, len(content) - len(content.lstrip()), content.strip()))

    result: Dict[str, Any] = {}
    i = 0
    while i < len(lines):
        number, indent, content = lines[i]
        if indent != 0:
            raise YamlError(number, "unexpected indentation")
        if content.startswith("- "):
            raise YamlError(number, "a list item needs a key above it")
        key, rest = _key_value(content, number)
        i += 1
        if rest:
            result[key] = _value(rest, number)
            continue
        children: List[Tuple[int, int, str]] = []
        while i < len(lines) and (lines[i][1] > 0 or lines[i][2].startswith("- ") or lines[i][2] == "-"):
            children.append(lines[i])
            i += 1
        if not children:
            result[key] = None
        elif all(c[2] == "-" or c[2].startswith("- ") for c in children):
            result[key] = [_value(c[2][1:].strip(), c[0]) for c in children]
        else:
            mapping: Dict[str, Any] = {}
            first_indent = children[0][1]
            for child_number, child_indent, child in children:
                if child_indent != first_indent or child.startswith("- "):
                    raise YamlError(child_number, "only one level of nesting is supported")
                child_key, child_value = _key_value(child, child_number)
                mapping[child_key] = _value(child_value, child_number)
            result[key] = mapping
    return result
