/** Channel folders (Zulip 11's ChannelFolder): the record, its API object and Zulip's rules for names and order. */
import { badRequest } from './errors.js';
import { codePointLength, nonPrintablePosition } from './topics.js';
import type { ChannelFolderRecord } from './realm.js';

export type { ChannelFolderRecord } from './realm.js';


export const MAX_FOLDER_NAME_LENGTH = 60;
export const MAX_FOLDER_DESCRIPTION_LENGTH = 1024;

/** The object of GET /channel_folders, register's `channel_folders` and `channel_folder` `add` events. */
export function folderObject(folder: ChannelFolderRecord): Record<string, unknown> {
  return {
    id: folder.id,
    name: folder.name,
    description: folder.description,
    rendered_description: folder.renderedDescription,
    creator_id: folder.creatorId,
    date_created: folder.dateCreated,
    is_archived: folder.isArchived,
    order: folder.order,
  };
}

/** Folders in their order, the archived ones only when asked. */
export function foldersInOrder(folders: readonly ChannelFolderRecord[], includeArchived: boolean): ChannelFolderRecord[] {
  return folders.filter((folder) => includeArchived || !folder.isArchived).sort((a, b) => a.order - b.order || a.id - b.id);
}

/** Zulip's check_channel_folder_name, on the stripped name: not empty, printable, not used (in any case) by another folder. */
export function checkFolderName(name: string, folders: readonly ChannelFolderRecord[], exceptId?: number): void {
  if (name.trim() === '') throw badRequest("Channel folder name can't be empty.");
  if (codePointLength(name) > MAX_FOLDER_NAME_LENGTH) throw badRequest(`name is too long (limit: ${MAX_FOLDER_NAME_LENGTH} characters)`);
  const position = nonPrintablePosition(name);
  if (position !== undefined) throw badRequest(`Invalid character in channel folder name, at position ${position}.`);
  const lower = name.toLowerCase();
  if (folders.some((folder) => folder.id !== exceptId && folder.name.toLowerCase() === lower)) throw badRequest('Channel folder name already in use');
}

/** Zulip's try_reorder_realm_channel_folders: the order must name every folder, archived ones included, each once. */
export function reorderedFolders(folders: readonly ChannelFolderRecord[], order: readonly number[]): ChannelFolderRecord[] {
  const position = new Map(order.map((id, index) => [id, index]));
  if (position.size !== order.length || order.length !== folders.length || folders.some((folder) => !position.has(folder.id))) {
    throw badRequest('Invalid order mapping.');
  }
  return folders.map((folder) => ({ ...folder, order: position.get(folder.id)! }));
}

export function requireFolder(folders: readonly ChannelFolderRecord[], id: number): ChannelFolderRecord {
  const folder = folders.find((candidate) => candidate.id === id);
  if (!folder) throw badRequest('Invalid channel folder ID');
  return folder;
}
