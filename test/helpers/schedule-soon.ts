/**
 * Scheduling a message a few seconds ahead on the real clock, without depending on how fast the
 * machine carries the request: the lead is short to keep tests short, and a loaded machine can
 * take longer than that to bring the request to the server, which then refuses a time already past.
 */
import type { Api, ApiResponse } from './client.js';
import { DELIVERY_TIME_IN_PAST } from '../../src/domain/scheduled-messages.js';

/**
 * POSTs /scheduled_messages due `leadSeconds` from now. Only when the server refuses the time as
 * already past (the request took longer than the lead) is it asked again, with a fresh time and a
 * doubled lead; any other answer is returned as it is, with the due time it was asked for.
 */
export async function scheduleSoon(api: Api, params: Record<string, unknown>, leadSeconds: number): Promise<{ response: ApiResponse; due: number }> {
  let lead = leadSeconds;
  for (let attempt = 0; attempt < 5; attempt++, lead *= 2) {
    const due = Math.floor(Date.now() / 1000) + lead;
    const response = await api.post('/scheduled_messages', { ...params, scheduled_delivery_timestamp: due });
    if (response.status === 400 && response.body?.msg === DELIVERY_TIME_IN_PAST) continue;
    return { response, due };
  }
  throw new Error(`the server refused every delivery time as past, up to ${lead / 2} s ahead`);
}
