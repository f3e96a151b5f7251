/** Rate limits as the front applies them: the rule lives in domain/rate-limit.ts (also used for failed logins, in queries/). */
export * from '../domain/rate-limit.js';
