/** The incoming webhook integrations this server has, as `realm_incoming_webhook_bots` lists them (level 403 on: `url_options`). */
export const INCOMING_WEBHOOK_INTEGRATIONS = [
  {
    name: 'github',
    display_name: 'GitHub',
    all_event_types: [
      'assigned_or_unassigned_pull_request', 'closed_pull_request', 'issue_comment', 'issues', 'opened_pull_request', 'ping', 'push_commits', 'push_tags', 'updated_pull_request',
    ],
    config_options: [],
    url_options: [
      { key: 'branches', label: 'Filter by branches (comma-separated list)', validator: 'check_string' },
      { key: 'ignore_private_repositories', label: 'Exclude notifications from private repositories', validator: 'check_bool' },
    ],
  },
  { name: 'slack_incoming', display_name: 'Slack-compatible webhook', all_event_types: null, config_options: [], url_options: [] },
] as const;
