/**
 * The probe: every client-facing operation of Zulip's API at our feature level (the selection rule
 * is written in test/helpers/openapi.ts) is answered as routed by a running server, not with the
 * router's 404 or 405. Each operation is called once, as the organization owner, with its
 * documented example path parameters and no other parameters: what the view answers (success, a
 * validation error, a refusal) does not matter here, only that a view answers.
 */
import { readFileSync } from 'node:fs';
import { test } from 'tap';
import { Router, type HttpMethod } from '../../src/http/router.js';
import { allOperations, clientOperations, exclusion, newInLevel, openapiPath } from '../helpers/openapi.js';
import { world } from '../helpers/world.js';

test('the selection rule', async (t) => {
  t.equal(newInLevel('**Changes**: New in Zulip 8.0 (feature level 202). Before this…'), 202);
  t.equal(newInLevel('No note here'), undefined);
  t.equal(exclusion({ path: '/real-time', newInLevel: undefined }), 'documentation only');
  t.equal(exclusion({ path: '/dev_fetch_api_key', newInLevel: undefined }), 'development only');
  t.equal(exclusion({ path: '/remotes/push/e2ee/register', newInLevel: 406 }), 'server to server');
  t.equal(exclusion({ path: '/channels/create', newInLevel: 417 }), 'newer than 416');
  t.equal(exclusion({ path: '/realm/test_welcome_bot_custom_message', newInLevel: 416 }), undefined, 'level 416 itself is in');
  t.equal(exclusion({ path: '/messages', newInLevel: undefined }), undefined);
});

test('every client-facing operation at our feature level is routed', async (t) => {
  const path = openapiPath();
  if (path === undefined) {
    t.fail('shared/reference/zulip-openapi.yaml not found beside the repository (or set PARLEY_OPENAPI)');
    return;
  }
  const source = readFileSync(path, 'utf8');
  const operations = clientOperations(source);
  t.comment(`${allOperations(source).length} operations documented, ${operations.length} client-facing at our level`);
  t.equal(operations.length, 132, 'as the issue counted them');

  const { server, desdemona } = await world(t);
  const table = new Router<true>();
  for (const route of server.routes) if (!route.root) table.add(route.method, route.path, true);

  const missing: string[] = [];
  for (const operation of operations) {
    const response = await desdemona.request(operation.method, operation.examplePath);
    const inTable = table.match(operation.examplePath)?.methods.has(operation.method as HttpMethod) === true;
    // A view may answer 404 itself (an unknown id); the router's 404 is the one for a path the table lacks.
    const routerAnswered = response.status === 405 || (response.status === 404 && !inTable);
    if (routerAnswered) missing.push(`${operation.method} ${operation.path}`);
  }
  t.comment(`routed: ${operations.length - missing.length} of ${operations.length}`);
  t.same(missing, [], 'operations the server does not route');
});
