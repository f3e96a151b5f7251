/**
 * Channel folders (`/channel_folders`): creating, renaming, describing, archiving and reordering
 * them, kept in the realm record, with the `channel_folder` events everyone receives.
 */
import { requireAdministrator } from '../domain/channel-admin.js';
import { checkFolderName, folderObject, reorderedFolders, requireFolder, type ChannelFolderRecord } from '../domain/channel-folders.js';
import { badRequest } from '../domain/errors.js';
import type { UserRecord } from '../domain/users.js';
import { everyone } from '../queries/people.js';
import type { Services } from '../services.js';
import { unixSeconds } from '../services.js';
import type { Transaction } from '../store/transaction.js';

const foldersOf = (services: Services): readonly ChannelFolderRecord[] => services.org.realm.channelFolders ?? [];

function saveFolders(services: Services, tx: Transaction, folders: readonly ChannelFolderRecord[]): void {
  const { org } = services;
  org.saveRealm({ ...org.realm, channelFolders: folders }, tx);
}

const rendered = (services: Services, description: string) => (description === '' ? '' : services.render(description).html);

/** `POST /channel_folders/create`: returns the new folder's id. */
export function createChannelFolder(services: Services, actor: UserRecord, name: string, description: string): Promise<number> {
  requireAdministrator(actor.role);
  return services.write((tx) => {
    const folders = foldersOf(services);
    const cleanName = name.trim();
    checkFolderName(cleanName, folders);
    const text = description.trim();
    const folder: ChannelFolderRecord = {
      id: services.counters.nextRealmId(services.org.id, 'channel_folder', tx),
      name: cleanName,
      description: text,
      renderedDescription: rendered(services, text),
      creatorId: actor.id,
      dateCreated: unixSeconds(services.clock),
      isArchived: false,
      order: folders.length,
    };
    saveFolders(services, tx, [...folders, folder]);
    tx.emit({ type: 'channel_folder', op: 'add', channel_folder: folderObject(folder) }, everyone(services));
    return folder.id;
  });
}

export interface FolderChanges {
  name?: string;
  description?: string;
  isArchived?: boolean;
}

/** `PATCH /channel_folders/{id}`: each changed part is one `update` event, in Zulip's order. */
export function updateChannelFolder(services: Services, actor: UserRecord, folderId: number, changes: FolderChanges): Promise<void> {
  requireAdministrator(actor.role);
  return services.write((tx) => {
    let folders = foldersOf(services);
    let folder = requireFolder(folders, folderId);
    const change = (data: Record<string, unknown>, next: ChannelFolderRecord) => {
      folders = folders.map((candidate) => (candidate.id === folderId ? next : candidate));
      folder = next;
      tx.emit({ type: 'channel_folder', op: 'update', channel_folder_id: folderId, data }, everyone(services));
    };
    if (changes.name !== undefined && changes.name !== folder.name) {
      const name = changes.name.trim();
      checkFolderName(name, folders, folderId);
      change({ name }, { ...folder, name });
    }
    if (changes.description !== undefined && changes.description !== folder.description) {
      const description = changes.description.trim();
      const html = rendered(services, description);
      change({ description, rendered_description: html }, { ...folder, description, renderedDescription: html });
    }
    if (changes.isArchived !== undefined && changes.isArchived !== folder.isArchived) {
      const inUse = [...services.org.channels.all()].some((channel) => channel.folderId === folderId);
      if (changes.isArchived && inUse) throw badRequest('You need to remove all the channels from this folder to archive it.');
      change({ is_archived: changes.isArchived }, { ...folder, isArchived: changes.isArchived });
    }
    saveFolders(services, tx, folders);
  });
}

/** `PATCH /channel_folders`: a new order naming every folder, with a `reorder` event. */
export function reorderChannelFolders(services: Services, actor: UserRecord, order: readonly number[]): Promise<void> {
  requireAdministrator(actor.role);
  return services.write((tx) => {
    saveFolders(services, tx, reorderedFolders(foldersOf(services), order));
    tx.emit({ type: 'channel_folder', op: 'reorder', order: [...order] }, everyone(services));
  });
}
