/**
 * Custom profile fields and users' values of them: defining, changing, reordering and deleting
 * fields (administrators), setting and clearing values, with the `custom_profile_fields` and
 * `realm_user` events Zulip sends. The fields live in the realm record.
 */
import { badRequest } from '../domain/errors.js';
import {
  checkFieldDefinition, checkFieldValue, checkSummaryLimit, DEFAULT_EXTERNAL_ACCOUNTS, fieldObject, FieldType, hasFieldData,
  inOrder, isDefaultExternalField, isEmptyValue, isRenderable, type FieldData, type ProfileFieldRecord,
} from '../domain/profile-fields.js';
import { isAdmin } from '../domain/roles.js';
import type { UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { Transaction } from '../store/transaction.js';
import { everyone } from '../queries/people.js';
import { mayChangeProfileField, refusalError } from '../domain/permissions.js';

const ADMIN_REQUIRED = 'Must be an organization administrator';

export function profileFields(services: Services): ProfileFieldRecord[] {
  return inOrder(services.org.realm.profileFields ?? []);
}

function requireAdmin(actor: UserRecord): void {
  if (!isAdmin(actor.role)) throw badRequest(ADMIN_REQUIRED);
}

function findField(services: Services, id: number): ProfileFieldRecord {
  const field = (services.org.realm.profileFields ?? []).find((f) => f.id === id);
  if (!field) throw badRequest(`Field id ${id} not found.`);
  return field;
}

/** Replaces the organization's fields and tells everyone the new list. */
function saveFields(services: Services, tx: Transaction, fields: readonly ProfileFieldRecord[]): void {
  const { org } = services;
  org.saveRealm({ ...org.realm, profileFields: fields }, tx);
  tx.emit({ type: 'custom_profile_fields', fields: inOrder(fields).map(fieldObject) }, everyone(services));
}

function checkNameFree(services: Services, name: string, exceptId?: number): void {
  if ((services.org.realm.profileFields ?? []).some((f) => f.name === name && f.id !== exceptId)) throw badRequest('A field with that label already exists.');
}

export interface NewField {
  name: string;
  hint: string;
  fieldType: number;
  fieldData: FieldData;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
}

/** `POST /realm/profile_fields`: returns the new field's id. */
export async function createField(services: Services, actor: UserRecord, spec: NewField): Promise<{ id: number }> {
  requireAdmin(actor);
  return services.write((tx) => {
    const existing = services.org.realm.profileFields ?? [];
    const name = spec.name.trim();
    if (spec.displayInProfileSummary) checkSummaryLimit(existing);
    checkFieldDefinition({ name, hint: spec.hint, type: spec.fieldType, fieldData: spec.fieldData, displayInProfileSummary: spec.displayInProfileSummary });
    const builtIn = isDefaultExternalField(spec.fieldType, spec.fieldData) ? DEFAULT_EXTERNAL_ACCOUNTS[spec.fieldData.subtype as string] : undefined;
    const fieldName = builtIn ? builtIn.name : name;
    checkNameFree(services, fieldName);
    const id = services.counters.nextRealmId(services.org.id, 'profile_field', tx);
    const field: ProfileFieldRecord = {
      id,
      name: fieldName,
      hint: builtIn ? builtIn.hint : spec.hint,
      type: spec.fieldType as FieldType,
      fieldData: !hasFieldData(spec.fieldType) ? null : builtIn ? { subtype: spec.fieldData.subtype } : spec.fieldData,
      order: id,
      displayInProfileSummary: spec.displayInProfileSummary,
      required: spec.required,
      editableByUser: spec.editableByUser,
    };
    saveFields(services, tx, [...existing, field]);
    return { id };
  });
}

export interface FieldChanges {
  name?: string;
  hint?: string;
  fieldData?: FieldData;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
}

/** `PATCH /realm/profile_fields/{field_id}`. */
export async function updateField(services: Services, actor: UserRecord, fieldId: number, changes: FieldChanges): Promise<Record<string, never>> {
  requireAdmin(actor);
  await services.write((tx) => {
    const field = findField(services, fieldId);
    const others = (services.org.realm.profileFields ?? []).filter((f) => f.id !== field.id);
    if (changes.displayInProfileSummary) checkSummaryLimit(others);
    const name = changes.name?.trim();
    const currentData = field.fieldData ?? {};
    if (field.type === FieldType.EXTERNAL_ACCOUNT && isDefaultExternalField(field.type, currentData)) {
      const changed = (name !== undefined && name !== field.name) || (changes.hint !== undefined && changes.hint !== field.hint)
        || (changes.fieldData !== undefined && JSON.stringify(changes.fieldData) !== JSON.stringify(currentData));
      if (changed) throw badRequest('Default custom field cannot be updated.');
    }
    const next: ProfileFieldRecord = {
      ...field,
      name: name ?? field.name,
      hint: changes.hint ?? field.hint,
      fieldData: hasFieldData(field.type) ? (changes.fieldData ?? currentData) : null,
      displayInProfileSummary: changes.displayInProfileSummary ?? field.displayInProfileSummary,
      required: changes.required ?? field.required,
      editableByUser: changes.editableByUser ?? field.editableByUser,
    };
    checkFieldDefinition({ name: next.name, hint: next.hint, type: next.type, fieldData: next.fieldData ?? {}, displayInProfileSummary: next.displayInProfileSummary });
    checkNameFree(services, next.name, field.id);
    if (field.type === FieldType.SELECT && changes.fieldData !== undefined) dropRemovedOptions(services, tx, field, changes.fieldData);
    saveFields(services, tx, [...others, next]);
  });
  return {};
}

/** Values naming an option that no longer exists are cleared, each with its event (as Zulip). */
function dropRemovedOptions(services: Services, tx: Transaction, field: ProfileFieldRecord, data: FieldData): void {
  const key = String(field.id);
  for (const user of [...services.org.users.all()]) {
    const value = user.profileData[key];
    if (value !== undefined && !Object.prototype.hasOwnProperty.call(data, value)) writeValue(services, tx, user, field, null);
  }
}

/** `PATCH /realm/profile_fields` with `order`: every field's id, in the new order. */
export async function reorderFields(services: Services, actor: UserRecord, order: readonly number[]): Promise<Record<string, never>> {
  requireAdmin(actor);
  await services.write((tx) => {
    const position = new Map<number, number>();
    order.forEach((id, index) => position.set(id, index));
    const fields = services.org.realm.profileFields ?? [];
    if (fields.some((f) => !position.has(f.id))) throw badRequest('Invalid order mapping.');
    saveFields(services, tx, fields.map((f) => ({ ...f, order: position.get(f.id)! })));
  });
  return {};
}

/** `DELETE /realm/profile_fields/{field_id}`: the field and every value of it go (Zulip's cascade sends no per-user event). */
export async function deleteField(services: Services, actor: UserRecord, fieldId: number): Promise<Record<string, never>> {
  requireAdmin(actor);
  await services.write((tx) => {
    const field = findField(services, fieldId);
    const key = String(field.id);
    for (const user of [...services.org.users.all()]) {
      if (!(key in user.profileData)) continue;
      const { [key]: _value, ...profileData } = user.profileData;
      const { [key]: _rendered, ...renderedProfileData } = user.renderedProfileData ?? {};
      services.org.users.save({ ...user, profileData, renderedProfileData }, tx);
    }
    saveFields(services, tx, (services.org.realm.profileFields ?? []).filter((f) => f.id !== field.id));
  });
  return {};
}

/** Sets (or, with null, clears) one value in `tx` and tells those who see the user; no event when nothing changes. */
function writeValue(services: Services, tx: Transaction, target: UserRecord, field: ProfileFieldRecord, value: string | null): void {
  const user = services.org.users.get(target.id)!;
  const key = String(field.id);
  const profileData = { ...user.profileData };
  const renderedProfileData = { ...(user.renderedProfileData ?? {}) };
  if (value === null) {
    if (!(key in profileData)) return;
    delete profileData[key];
    delete renderedProfileData[key];
  } else {
    if (profileData[key] === value) return;
    profileData[key] = value;
    if (isRenderable(field.type)) renderedProfileData[key] = services.render(value, user).html;
  }
  services.org.users.save({ ...user, profileData, renderedProfileData }, tx);
  const change: Record<string, unknown> = { id: field.id, value };
  if (value !== null && renderedProfileData[key] !== undefined) change.rendered_value = renderedProfileData[key];
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, custom_profile_field: change } }, everyone(services));
}

export interface ValueUpdate {
  id: number;
  value: unknown;
}

/**
 * Sets values in `tx` (an empty value clears the field): every entry is checked before any is
 * written. Members may change only fields editable by users; administrators any.
 */
export function setValuesIn(services: Services, tx: Transaction, actor: UserRecord, target: UserRecord, updates: readonly ValueUpdate[]): void {
  const users = (id: number) => services.org.users.get(id);
  const planned = updates.map((update) => {
    const field = findField(services, update.id);
    const refusal = mayChangeProfileField(actor, field);
      if (refusal) throw refusalError(refusal);
    const value = isEmptyValue(update.value) ? null : checkFieldValue(field, update.value, (id) => {
      const user = users(id);
      return user && !user.isSystemBot ? user : undefined;
    });
    return { field, value };
  });
  for (const { field, value } of planned) writeValue(services, tx, target, field, value);
}

/** `PATCH /users/me/profile_data`. */
export async function updateOwnProfileData(services: Services, actor: UserRecord, updates: readonly ValueUpdate[]): Promise<Record<string, never>> {
  if (actor.isBot) throw badRequest('This endpoint does not accept bot requests.');
  await services.write((tx) => setValuesIn(services, tx, actor, actor, updates));
  return {};
}

/** `DELETE /users/me/profile_data`: clears the fields named (one not set is no error). */
export async function removeOwnProfileData(services: Services, actor: UserRecord, fieldIds: readonly number[]): Promise<Record<string, never>> {
  if (actor.isBot) throw badRequest('This endpoint does not accept bot requests.');
  await services.write((tx) => {
    const fields = fieldIds.map((id) => findField(services, id));
    for (const field of fields) {
      const refusal = mayChangeProfileField(actor, field);
      if (refusal) throw refusalError(refusal);
    }
    for (const field of fields) writeValue(services, tx, actor, field, null);
  });
  return {};
}
