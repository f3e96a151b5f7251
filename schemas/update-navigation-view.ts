/** Parameters of PATCH /navigation_views/{fragment}. */
export const updateNavigationView = {
  "$id": "update-navigation-view",
  "description": "PATCH /navigation_views/{fragment}",
  "type": "object",
  "properties": {
    "is_pinned": { "type": "boolean" },
    "name": { "type": "string" }
  }
} as const;
