/** A user's visibility policy for a topic, as Zulip numbers them. */
export const VisibilityPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;
export type VisibilityPolicy = (typeof VisibilityPolicy)[keyof typeof VisibilityPolicy];
