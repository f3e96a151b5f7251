/** Parameters of POST /users. */
export const createUser = {
  "$id": "create-user",
  "description": "POST /users",
  "type": "object",
  "properties": {
    "email": { "type": "string" },
    "password": { "type": "string" },
    "full_name": { "type": "string" }
  },
  "required": ["email", "password", "full_name"]
} as const;
