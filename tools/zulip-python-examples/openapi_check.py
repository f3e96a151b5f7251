"""
The check Zulip's examples make after each call (`validate_against_openapi_schema` in
zerver/openapi/openapi.py): the response is validated against the schema Zulip's OpenAPI
document gives for the operation and status. As there, error answers (4xx) are not checked and
an operation the document lacks is skipped; the document declares `additionalProperties` on
every object, so a field Zulip does not document is an error.

Standard JSON Schema semantics as OpenAPI 3.0 uses them: $ref, allOf / oneOf / anyOf, type
(with `nullable`), enum, properties, required, additionalProperties, items.

The document is Zulip's current one; a server at our feature level answers as Zulip did at that
level. So where a schema's own "**Changes**" note says a later level added a required field
("New in Zulip X (feature level N)") or changed a field's type ("(feature level N) changed the
type"), with N above FEATURE_LEVEL, the field may be absent, or of its earlier type.
"""
import re
from typing import Any

import yaml

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

FEATURE_LEVEL = 416
NEW_IN = re.compile(r"New in Zulip [0-9.]+ \(feature level ([0-9]+)\)")
TYPE_CHANGED = re.compile(r"\(feature level ([0-9]+)\) changed the type")


def later(pattern: re.Pattern[str], schema: Any) -> bool:
    """Whether the schema's description notes a change of this kind above our feature level."""
    description = schema.get("description", "") if isinstance(schema, dict) else ""
    return any(int(level) > FEATURE_LEVEL for level in pattern.findall(description))


class SchemaError(Exception):
    pass


class OpenApi:
    def __init__(self, path: str) -> None:
        with open(path, encoding="utf-8") as handle:
            self.document = yaml.load(handle, Loader=Loader)
        self.paths: dict[str, Any] = self.document["paths"]

    def resolve(self, schema: Any) -> Any:
        while isinstance(schema, dict) and "$ref" in schema:
            node: Any = self.document
            for part in schema["$ref"].lstrip("#/").split("/"):
                node = node[part]
            schema = node
        return schema

    def endpoint(self, path: str) -> str | None:
        """The document's path for a concrete one (`/streams/7` → `/streams/{stream_id}`)."""
        if path in self.paths:
            return path
        for template in self.paths:
            pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
            if re.match(pattern, path):
                return template
        return None

    def response_schema(self, path: str, method: str, status: str) -> Any | None:
        endpoint = self.endpoint(path)
        if endpoint is None or method.lower() not in self.paths[endpoint]:
            return None
        response = self.resolve(self.paths[endpoint][method.lower()]["responses"].get(status))
        if response is None:
            raise SchemaError(f"{method.upper()} {endpoint} documents no {status} answer")
        return self.resolve(response["content"]["application/json"]["schema"])

    def validate(self, content: Any, path: str, method: str, status: str = "200") -> bool:
        """True if checked, False if skipped (an error answer, or an operation not documented)."""
        if status.startswith("4"):
            return False
        schema = self.response_schema(path, method, status)
        if schema is None:
            return False
        problems = self.problems(content, schema, "response")
        if problems:
            raise SchemaError(f"{method.upper()} {path} ({status}): " + "; ".join(problems[:5]))
        return True

    def problems(self, value: Any, schema: Any, where: str) -> list[str]:
        schema = self.resolve(schema)
        if not isinstance(schema, dict):
            return []
        found: list[str] = []
        for part in schema.get("allOf", []):
            found += self.problems(value, part, where)
        for keyword in ("oneOf", "anyOf"):
            if keyword in schema:
                branches = [self.problems(value, part, where) for part in schema[keyword]]
                passing = sum(1 for b in branches if not b)
                # openapi-core takes oneOf as "at least one" where branches overlap only in examples.
                if passing == 0:
                    found.append(f"{where} matches none of {keyword}: " + min(branches, key=len)[0])
        if value is None:
            if schema.get("nullable") or "type" not in schema and "enum" not in schema:
                return found
            if "enum" in schema and None in schema["enum"]:
                return found
            return found + [f"{where} is null"]
        if later(TYPE_CHANGED, schema):
            return found
        if "enum" in schema and value not in schema["enum"]:
            found.append(f"{where} = {value!r} is not one of {schema['enum']}")
        kind = schema.get("type")
        if kind is not None and not self.has_type(value, kind):
            return found + [f"{where} = {str(value)[:60]!r} is not of type {kind}"]
        if isinstance(value, dict):
            found += self.object_problems(value, schema, where)
        if isinstance(value, list) and "items" in schema:
            for index, item in enumerate(value):
                found += self.problems(item, schema["items"], f"{where}[{index}]")
        return found

    def object_problems(self, value: dict[str, Any], schema: dict[str, Any], where: str) -> list[str]:
        found: list[str] = []
        properties = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value and not later(NEW_IN, self.resolve(properties.get(key))):
                found.append(f"{where} lacks {key!r}")
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                found += self.problems(item, properties[key], f"{where}.{key}")
            elif extra is False:
                found.append(f"{where} has {key!r}, which is not documented")
            elif isinstance(extra, dict):
                found += self.problems(item, extra, f"{where}.{key}")
        return found

    @staticmethod
    def has_type(value: Any, kind: str) -> bool:
        if kind == "integer":
            return isinstance(value, int) and not isinstance(value, bool)
        if kind == "number":
            return isinstance(value, (int, float)) and not isinstance(value, bool)
        return isinstance(value, {"string": str, "boolean": bool, "object": dict, "array": list}.get(kind, object))
