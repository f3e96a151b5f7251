/** Parameters of GET /navigation_views. */
export const getNavigationViews = { "$id": "get-navigation-views", "description": "GET /navigation_views", "type": "object", "properties": {} } as const;
