/** The incoming webhook integrations this server has, as `realm_incoming_webhook_bots` lists them (level 403 on: `url_options`). */
import { GITHUB_EVENT_TYPES } from './github-events.js';

export const INCOMING_WEBHOOK_INTEGRATIONS = [
  {
    name: 'github',
    display_name: 'GitHub',
    all_event_types: GITHUB_EVENT_TYPES,
    config_options: [],
    url_options: [
      { key: 'branches', label: 'Filter by branches (comma-separated list)', validator: 'check_string' },
      { key: 'ignore_private_repositories', label: 'Exclude notifications from private repositories', validator: 'check_bool' },
    ],
  },
  { name: 'slack_incoming', display_name: 'Slack-compatible webhook', all_event_types: null, config_options: [], url_options: [] },
] as const;
