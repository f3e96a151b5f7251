/** `/user_groups`: creating, reading, editing and deactivating user groups and their membership. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/user-groups.js';
import { groupMemberIds, groupObjects, isGroupMemberQuery, requireMemberOrAdmin, subgroupIds } from '../queries/user-groups.js';

type GroupPath = { user_group_id: number };

/** POST /user_groups/create */
export async function createUserGroup(services: Services, request: Request<typeof schemas.createUserGroup>) {
  const { name, description, members, subgroups, ...settings } = request.params;
  return { group_id: await actions.createUserGroup(services, me(request), { name, description, members, subgroups, settings }) };
}

/** GET /user_groups */
export function getUserGroups(services: Services, request: Request<typeof schemas.getUserGroups>) {
  requireMemberOrAdmin(me(request));
  return { user_groups: groupObjects(services, request.params.include_deactivated_groups) };
}

/** PATCH /user_groups/{user_group_id:int} */
export async function updateUserGroup(services: Services, request: Request<typeof schemas.updateUserGroup, GroupPath>) {
  const { user_group_id, name, description, deactivated, ...settings } = request.params;
  await actions.updateUserGroup(services, me(request), user_group_id, { name, description, deactivated, settings });
  return {};
}

/** POST /user_groups/{user_group_id:int}/deactivate */
export async function deactivateUserGroup(services: Services, request: Request<typeof schemas.deactivateUserGroup, GroupPath>) {
  await actions.deactivateUserGroup(services, me(request), request.params.user_group_id);
  return {};
}

/** POST /user_groups/{user_group_id:int}/members */
export async function updateUserGroupMembers(services: Services, request: Request<typeof schemas.updateUserGroupMembers, GroupPath>) {
  const p = request.params;
  await actions.updateGroupMembers(services, me(request), p.user_group_id, { add: p.add, delete: p.delete, addSubgroups: p.add_subgroups, deleteSubgroups: p.delete_subgroups });
  return {};
}

/** POST /user_groups/{user_group_id:int}/subgroups */
export async function updateUserGroupSubgroups(services: Services, request: Request<typeof schemas.updateUserGroupSubgroups, GroupPath>) {
  const p = request.params;
  await actions.updateSubgroups(services, me(request), p.user_group_id, { add: p.add, delete: p.delete });
  return {};
}

/** GET /user_groups/{user_group_id:int}/members */
export function getUserGroupMembers(services: Services, request: Request<typeof schemas.getUserGroupMembers, GroupPath>) {
  requireMemberOrAdmin(me(request));
  return { members: groupMemberIds(services, request.params.user_group_id, request.params.direct_member_only) };
}

/** GET /user_groups/{user_group_id:int}/members/{user_id:int} */
export function getIsUserGroupMember(services: Services, request: Request<typeof schemas.getUserGroupMembers, GroupPath & { user_id: number }>) {
  requireMemberOrAdmin(me(request));
  const p = request.params;
  return { is_user_group_member: isGroupMemberQuery(services, p.user_group_id, p.user_id, p.direct_member_only) };
}

/** GET /user_groups/{user_group_id:int}/subgroups */
export function getUserGroupSubgroups(services: Services, request: Request<typeof schemas.getUserGroupSubgroups, GroupPath>) {
  requireMemberOrAdmin(me(request));
  return { subgroups: subgroupIds(services, request.params.user_group_id, request.params.direct_subgroup_only) };
}
