/** Parameters of DELETE /navigation_views/{fragment}. */
export const removeNavigationView = { "$id": "remove-navigation-view", "description": "DELETE /navigation_views/{fragment}", "type": "object", "properties": {} } as const;
