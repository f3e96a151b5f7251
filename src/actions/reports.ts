/** A moderation report: the notification bot posts it to the organization's moderation request channel. */
import { badRequest } from '../domain/errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME, realmSetting } from '../domain/realm.js';
import { REPORT_TYPES, reportContent, reportTopic, validateReport, type ReportType } from '../domain/report.js';
import { normalizeTopic } from '../domain/topics.js';
import type { UserRecord } from '../domain/users.js';
import { LIMITS } from '../domain/versions.js';
import type { Services } from '../services.js';
import { requireMessage } from '../queries/message-access.js';
import { notify } from './notifications.js';

export interface ReportRequest {
  messageId: number;
  reportType: string;
  description?: string;
}

export async function reportMessage(services: Services, reporter: UserRecord, params: ReportRequest): Promise<void> {
  const { org } = services;
  const reportType = params.reportType as ReportType;
  if (!REPORT_TYPES.includes(reportType)) throw badRequest('Invalid report_type');
  const description = params.description ?? '';
  validateReport(reportType, description);
  const channelId = realmSetting(org.realm, 'moderation_request_channel_id');
  const channel = channelId === -1 ? undefined : org.channels.get(channelId);
  if (!channel) throw badRequest('Message reporting is not enabled in this organization.');
  const { record } = requireMessage(services, reporter, params.messageId);
  const person = (id: number) => ({ id, fullName: org.users.get(id)?.fullName ?? 'Unknown user' });
  const reported = person(record.senderId);
  const content = reportContent({
    reporter: { id: reporter.id, fullName: reporter.fullName },
    reportedUser: reported,
    reportType,
    description,
    message:
      record.type === 'stream'
        ? { id: record.id, content: record.content, timestampSeconds: record.timestamp, kind: 'channel', channelId: record.channelId!, channelName: org.channels.get(record.channelId!)?.name ?? '', topic: record.topic! }
        : { id: record.id, content: record.content, timestampSeconds: record.timestamp, kind: 'direct', participants: record.dmUserIds!.map(person) },
    realmUrl: org.url,
  });
  const topic = normalizeTopic(reportTopic(reported), { maxLength: LIMITS.maxTopicLength, emptyTopicDisplayName: EMPTY_TOPIC_DISPLAY_NAME });
  await services.write((tx) => {
    notify(services, tx, { channel, topic }, content, reporter);
  });
}
