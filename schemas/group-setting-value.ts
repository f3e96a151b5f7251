/** The JSON Schema of a group-setting value and of its `{new, old}` update, shared by the user-group schemas. */
export const groupSettingValue = {
  "anyOf": [
    { "type": "integer" },
    {
      "type": "object",
      "properties": {
        "direct_members": { "type": "array", "items": { "type": "integer" } },
        "direct_subgroups": { "type": "array", "items": { "type": "integer" } }
      },
      "required": ["direct_members", "direct_subgroups"],
      "additionalProperties": false
    }
  ]
} as const;

export const groupSettingUpdate = {
  "type": "object",
  "properties": { "new": groupSettingValue, "old": groupSettingValue },
  "required": ["new"],
  "additionalProperties": false
} as const;
