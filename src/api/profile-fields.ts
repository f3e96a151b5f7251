/** Custom profile fields: `/realm/profile_fields` (administrators change them) and a user's own values, `/users/me/profile_data`. */
import type { Services } from '../services.js';
import { fieldObject } from '../domain/profile-fields.js';
import * as schemas from '../../schemas/index.js';
import { me, type Request } from './route.js';
import * as actions from '../actions/profile-fields.js';

/** GET /realm/profile_fields */
export function getProfileFields(services: Services, _request: Request<typeof schemas.getProfileFields>) {
  return { custom_fields: actions.profileFields(services).map(fieldObject) };
}

/** POST /realm/profile_fields */
export function createProfileField(services: Services, request: Request<typeof schemas.createProfileField>) {
  const p = request.params;
  return actions.createField(services, me(request), {
    name: p.name,
    hint: p.hint,
    fieldType: p.field_type,
    fieldData: p.field_data,
    displayInProfileSummary: p.display_in_profile_summary,
    required: p.required,
    editableByUser: p.editable_by_user,
  });
}

/** PATCH /realm/profile_fields (reorder) */
export function reorderProfileFields(services: Services, request: Request<typeof schemas.reorderProfileFields>) {
  return actions.reorderFields(services, me(request), request.params.order);
}

/** PATCH /realm/profile_fields/{field_id:int} */
export function updateProfileField(services: Services, request: Request<typeof schemas.updateProfileField, { field_id: number }>) {
  const p = request.params;
  return actions.updateField(services, me(request), p.field_id, {
    name: p.name,
    hint: p.hint,
    fieldData: p.field_data,
    displayInProfileSummary: p.display_in_profile_summary,
    required: p.required,
    editableByUser: p.editable_by_user,
  });
}

/** DELETE /realm/profile_fields/{field_id:int} */
export function deleteProfileField(services: Services, request: Request<typeof schemas.deleteProfileField, { field_id: number }>) {
  return actions.deleteField(services, me(request), request.params.field_id);
}

/** PATCH /users/me/profile_data */
export function updateProfileData(services: Services, request: Request<typeof schemas.updateProfileData>) {
  return actions.updateOwnProfileData(services, me(request), request.params.data);
}

/** DELETE /users/me/profile_data */
export function deleteProfileData(services: Services, request: Request<typeof schemas.deleteProfileData>) {
  return actions.removeOwnProfileData(services, me(request), request.params.data);
}
