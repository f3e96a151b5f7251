/** Shared pieces of the user-group tests: creating groups, reading them back, system group ids. */
import type { Api, Params } from './client.js';
import { clientFor, type TestServer } from './server.js';

/** Every group the caller sees, by name (deactivated ones included). */
export async function groupsByName(api: Api): Promise<Record<string, any>> {
  const response = await api.get('/user_groups', { include_deactivated_groups: true });
  if (response.status !== 200) throw new Error(`GET /user_groups failed: ${JSON.stringify(response.body)}`);
  return Object.fromEntries(response.body.user_groups.map((group: any) => [group.name, group]));
}

/** A system group's id. */
export async function systemGroupId(api: Api, name: string): Promise<number> {
  const group = (await groupsByName(api))[name];
  if (!group) throw new Error(`no system group ${name}`);
  return group.id;
}

/** One group as GET /user_groups shows it. */
export async function groupById(api: Api, id: number): Promise<any> {
  return Object.values(await groupsByName(api)).find((group: any) => group.id === id);
}

/** Creates a group and returns its id (throws on refusal). */
export async function createGroup(api: Api, name: string, members: number[], extra: Params = {}): Promise<number> {
  const response = await api.post('/user_groups/create', { name, description: `${name} people`, members, ...extra });
  if (response.status !== 200) throw new Error(`create failed: ${JSON.stringify(response.body)}`);
  return response.body.group_id;
}

export const refused = (msg: string, code = 'BAD_REQUEST') => [400, code, msg];

/** Deactivates a user as an administrator does (DELETE /users/{id}, by iago). */
export async function deactivateUser(server: TestServer, userId: number): Promise<void> {
  const response = await clientFor(server, 'iago@example.com').delete(`/users/${userId}`);
  if (response.status !== 200) throw new Error(`deactivation failed: ${JSON.stringify(response.body)}`);
}
