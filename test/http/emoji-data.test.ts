/**
 * `server_emoji_data_url`: an absolute URL, served without credentials, naming every Unicode
 * emoji Parley accepts (the mobile app's picker and autocomplete read it at start).
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';
import { messageWorld, send } from '../helpers/messages.js';
import { unicodeEmojiCode } from '../../src/domain/emoji.js';

test('emoji data', async (t) => {
  t.test('the URL, the file and its caching', async (t) => {
    const { server, hamlet } = await world(t);
    const url: string = (await hamlet.post('/register', { fetch_event_types: ['realm'] })).body.server_emoji_data_url;
    t.ok(url.startsWith(server.url + '/static/'), `an absolute URL on this server: ${url}`);
    const settings = await fetch(server.url + '/api/v1/server_settings');
    t.equal(settings.status, 200);

    const response = await fetch(url);
    t.equal(response.status, 200, 'fetched without credentials');
    t.equal(response.headers.get('content-type'), 'application/json');
    t.match(response.headers.get('cache-control'), /max-age=\d+/);
    const etag = response.headers.get('etag');
    t.ok(etag, 'an ETag');
    const data = await response.json() as { code_to_names: Record<string, string[]> };
    t.same(Object.keys(data), ['code_to_names'], 'one property, as Zulip documents');
    t.equal(data.code_to_names['1f44d']?.[0], '+1', 'the canonical name first');
    t.ok(data.code_to_names['1f44d']?.includes('thumbs_up'), 'and the other names');
    t.ok(data.code_to_names['1f389']?.includes('tada'));
    let names = 0;
    let wrong = 0;
    for (const [code, list] of Object.entries(data.code_to_names)) {
      for (const name of list) {
        names++;
        if (unicodeEmojiCode(name) !== code) wrong++;
      }
    }
    t.ok(names > 3000, `${names} names`);
    t.equal(wrong, 0, 'every name is accepted, for exactly that code');

    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    t.equal(again.status, 304, 'a cached copy is still good');
    t.equal(await again.text(), '');
    const head = await fetch(url, { method: 'HEAD' });
    t.equal(head.status, 200);
    t.equal(Number(head.headers.get('content-length')), Buffer.byteLength(JSON.stringify(data)), 'HEAD tells the length');
    t.equal((await fetch(url, { method: 'POST' })).status, 405);
    t.equal((await fetch(server.url + '/static/generated/emoji/nothing.json')).status, 404, 'nothing else is served there');
  });

  t.test('names from the file work in reactions', async (t) => {
    const { hamlet, othello } = await messageWorld(t);
    const url: string = (await hamlet.post('/register', { fetch_event_types: ['realm'] })).body.server_emoji_data_url;
    const data = await (await fetch(url)).json() as { code_to_names: Record<string, string[]> };
    const id = await send(hamlet, 'Denmark', 'emoji', 'react to me');
    const picks = ['1f389', '1f44d', '2764'].filter((code) => data.code_to_names[code]);
    t.equal(picks.length, 3);
    for (const code of picks) {
      for (const name of data.code_to_names[code]!.slice(0, 2)) {
        const response = await othello.post(`/messages/${id}/reactions`, { emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' });
        t.equal(response.status, 200, `${name} (${code})`);
        await othello.delete(`/messages/${id}/reactions`, { emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' });
      }
    }
  });
});
