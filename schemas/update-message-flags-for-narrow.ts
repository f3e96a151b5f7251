/** Parameters of POST /messages/flags/narrow. */
export const updateMessageFlagsForNarrow = {
  "$id": "update-message-flags-for-narrow",
  "description": "POST /messages/flags/narrow",
  "type": "object",
  "properties": {
    "anchor": {
      "type": "string"
    },
    "include_anchor": {
      "type": "boolean",
      "default": true
    },
    "num_before": {
      "type": "integer",
      "minimum": 0
    },
    "num_after": {
      "type": "integer",
      "minimum": 0
    },
    "narrow": {
      "type": [
        "array",
        "null"
      ]
    },
    "op": {
      "type": "string"
    },
    "flag": {
      "type": "string"
    }
  },
  "required": [
    "anchor",
    "num_before",
    "num_after",
    "narrow",
    "op",
    "flag"
  ]
} as const;
