/** Every area's routes, in one table. */
import type { Services } from '../services.js';
import { authRoutes } from './authentication.js';
import type { ApiRoute } from './route.js';
import { serverSettingsRoutes } from './server-settings.js';
import { userRoutes, type UserReadDeps } from './users.js';
import { channelRoutes } from './channels.js';
import { subscriptionRoutes } from './subscriptions.js';
import { sendRoutes } from './message-send.js';
import { messageRoutes } from './message-fetch.js';
import { editRoutes } from './message-edit.js';
import { deleteRoutes } from './message-delete.js';
import { historyRoutes } from './message-history.js';
import { reactionRoutes } from './reactions.js';
import { flagRoutes } from './flags.js';
import { reportRoutes } from './reports.js';
import { eventRoutes } from './events.js';
import { presenceRoutes } from './presence.js';
import { typingRoutes } from './typing.js';
import { subscriptionSettingRoutes } from './subscription-settings.js';
import { userAdminRoutes } from './user-admin.js';

export function allRoutes(services: Services, deps: UserReadDeps): ApiRoute[] {
  return [
    ...authRoutes(services),
    ...serverSettingsRoutes(services),
    ...userRoutes(services, deps),
    ...channelRoutes(services),
    ...subscriptionRoutes(services),
    ...sendRoutes(services),
    ...messageRoutes(services),
    ...editRoutes(services),
    ...deleteRoutes(services),
    ...historyRoutes(services),
    ...reactionRoutes(services),
    ...flagRoutes(services),
    ...reportRoutes(services),
    ...eventRoutes(services),
    ...presenceRoutes(services),
    ...typingRoutes(services),
    ...subscriptionSettingRoutes(services),
    ...userAdminRoutes(services),
  ];
}
