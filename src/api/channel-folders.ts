/** `/channel_folders`: creating, listing, reordering and changing channel folders. */
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { type Request } from './route.js';
import { me } from './route.js';
import * as actions from '../actions/channel-folders.js';
import { folderObject, foldersInOrder } from '../domain/channel-folders.js';

/** POST /channel_folders/create */
export async function createChannelFolder(services: Services, request: Request<typeof schemas.createChannelFolder>) {
  return { channel_folder_id: await actions.createChannelFolder(services, me(request), request.params.name, request.params.description) };
}

/** GET /channel_folders */
export function getChannelFolders(services: Services, request: Request<typeof schemas.getChannelFolders>) {
  return { channel_folders: foldersInOrder(services.org.realm.channelFolders ?? [], request.params.include_archived).map(folderObject) };
}

/** PATCH /channel_folders */
export async function reorderChannelFolders(services: Services, request: Request<typeof schemas.reorderChannelFolders>) {
  await actions.reorderChannelFolders(services, me(request), request.params.order);
  return {};
}

/** PATCH /channel_folders/{channel_folder_id:int} */
export async function updateChannelFolder(services: Services, request: Request<typeof schemas.updateChannelFolder, { channel_folder_id: number }>) {
  const p = request.params;
  await actions.updateChannelFolder(services, me(request), p.channel_folder_id, { name: p.name, description: p.description, isArchived: p.is_archived });
  return {};
}
