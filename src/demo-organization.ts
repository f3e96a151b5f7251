/** The demo organization of the design: its users, roles, bot, channels and subscriptions. */
import { Role } from './domain/roles.js';

export const DEMO_PASSWORD = 'parley-demo';
export const DEMO_ORGANIZATION_NAME = 'Parley Demo';
/** The description of Zulip's development organization. */
export const DEMO_ORGANIZATION_DESCRIPTION = 'The coolest place in the universe.';

export const DEMO_USERS = [
  { email: 'desdemona@example.com', fullName: 'Desdemona', role: Role.OWNER },
  { email: 'iago@example.com', fullName: 'Iago', role: Role.ADMINISTRATOR },
  { email: 'shiva@example.com', fullName: 'Shiva', role: Role.MODERATOR },
  { email: 'hamlet@example.com', fullName: 'King Hamlet', role: Role.MEMBER },
  { email: 'othello@example.com', fullName: 'Othello, the Moor of Venice', role: Role.MEMBER },
  { email: 'cordelia@example.com', fullName: "Cordelia, Lear's daughter", role: Role.MEMBER },
  { email: 'prospero@example.com', fullName: 'Prospero from The Tempest', role: Role.MEMBER },
  { email: 'polonius@example.com', fullName: 'Polonius', role: Role.GUEST },
] as const;

export const NOTIFICATION_BOT = { email: 'notification-bot@example.com', fullName: 'Notification Bot' };

const everyoneButPolonius = DEMO_USERS.filter((u) => u.role !== Role.GUEST).map((u) => u.email);

export const DEMO_CHANNELS: { name: string; description: string; inviteOnly: boolean; isDefault: boolean; subscribers: string[] }[] = [
  { name: 'general', description: 'For everything', inviteOnly: false, isDefault: true, subscribers: everyoneButPolonius },
  { name: 'Verona', description: 'Fair Verona, where we lay our scene', inviteOnly: false, isDefault: false, subscribers: [...everyoneButPolonius, 'polonius@example.com'] },
  { name: 'Denmark', description: 'Something is rotten in the state of Denmark', inviteOnly: false, isDefault: false, subscribers: everyoneButPolonius },
  { name: 'Scotland', description: 'Fair is foul, and foul is fair', inviteOnly: false, isDefault: false, subscribers: ['othello@example.com', 'cordelia@example.com'] },
  { name: 'core team', description: 'A private channel for the core team', inviteOnly: true, isDefault: false, subscribers: ['desdemona@example.com', 'iago@example.com'] },
  { name: 'moderation', description: 'Moderation requests', inviteOnly: true, isDefault: false, subscribers: ['desdemona@example.com', 'iago@example.com', 'shiva@example.com'] },
];
