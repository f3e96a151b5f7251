/** Parameters of POST /navigation_views. */
export const addNavigationView = {
  "$id": "add-navigation-view",
  "description": "POST /navigation_views",
  "type": "object",
  "properties": {
    "fragment": { "type": "string" },
    "is_pinned": { "type": "boolean" },
    "name": { "type": "string" }
  },
  "required": ["fragment", "is_pinned"]
} as const;
