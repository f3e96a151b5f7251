/** Whether an organization has timed work waiting: a scheduled message or reminder to send, a notification to deliver. */
import type { Services } from '../services.js';

export function hasTimedWork(services: Services): boolean {
  if (services.notifications.waiting) return true;
  for (const record of services.scheduled.all()) if (!record.failed) return true;
  return false;
}
