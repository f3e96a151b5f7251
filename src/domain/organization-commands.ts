/**
 * The names of the organization commands, apart from their implementation (organization-admin.ts):
 * the CLI tells them from the others before it loads what only a stopped server's data needs.
 */
export const ORGANIZATION_COMMANDS = ['create-organization', 'list-organizations', 'deactivate-organization', 'reactivate-organization'] as const;
export type OrganizationCommand = (typeof ORGANIZATION_COMMANDS)[number];

export function isOrganizationCommand(command: string): command is OrganizationCommand {
  return (ORGANIZATION_COMMANDS as readonly string[]).includes(command);
}
