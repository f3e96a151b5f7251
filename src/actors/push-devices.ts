/**
 * A user's push registrations, one actor per user (see personal-records.ts): end-to-end
 * encrypted ones keyed `e2ee:{push_account_id}`, the deprecated token ones `{kind}:{token}`.
 */
import type { PushRegistrationRecord } from '../domain/push-devices.js';
import { recordsKind } from './personal-records.js';

export const pushDevicesKind = recordsKind<PushRegistrationRecord>('push_devices');
