import { CopyOutlined, DeleteOutlined, QrcodeOutlined, WhatsAppOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Spin } from 'antd';
import { useState } from 'react';
import type { Pilot, Trip } from '@crewswap/proto';
import { errorMessage } from '../../api/client';
import {
  useClaimWhatsAppGroup,
  useCreateWhatsAppGroup,
  useDeleteWhatsAppGroup,
  useSetWhatsAppGroupLink,
  useWhatsAppGroup,
} from '../../api/crew';
import { toast } from '../../shared/toast';
import { useConfirm } from '../../shared/useConfirm';
import { copyText } from './copy';
import { GroupLinkDialog } from './GroupLinkDialog';
import { WHATSAPP_MESSAGES } from '@crewswap/proto/browser';
import { groupView, inviteLinkProblem } from './groupRules';

/** The trip's WhatsApp group: none -> pending (creator sets the link) -> active; claimable; expired. */
export function WhatsAppGroupSection({ trip, me }: { trip: Trip; me: Pilot }) {
  const answer = useWhatsAppGroup(trip.id);
  const create = useCreateWhatsAppGroup(trip.id);
  const claim = useClaimWhatsAppGroup(trip.id);
  const remove = useDeleteWhatsAppGroup(trip.id);
  const confirm = useConfirm();
  const [showQr, setShowQr] = useState(false);
  const group = answer.data?.group ?? null;
  const view = groupView(answer.data);

  const deleteGroup = async () => {
    const ok = await confirm({
      title: 'Delete WhatsApp Group',
      content: 'The group link will be removed for the whole crew, and another crew member may create a new group. The group itself stays in WhatsApp.',
      okText: 'Delete',
      danger: true,
    });
    if (ok) remove.mutate(undefined, { onSuccess: () => toast.success('WhatsApp group deleted') });
  };

  const createGroup = () =>
    create.mutate(undefined, {
      onSuccess: (created) => {
        if (created?.group?.justCreatedByOther) {
          toast.info('Group already started', `${created.group.creatorName ?? 'Another crew member'} has just created the WhatsApp group for this trip.`);
        }
      },
    });

  let body;
  if (answer.isLoading) body = <Spin size="small" />;
  else if (answer.isError) body = <Alert type="error" showIcon title={`Could not load the WhatsApp group: ${errorMessage(answer.error)}`} />;
  else if (view.expired && !group?.inviteLink) {
    body = <Alert type="info" showIcon title={answer.data?.message ?? (group ? WHATSAPP_MESSAGES.endedLink : WHATSAPP_MESSAGES.endedCreate)} />;
  } else if (view.status === 'none') {
    body = (
      <>
        <p className="muted">No WhatsApp group for this trip yet. Create one and share its link with the crew.</p>
        <Button type="primary" className="whatsapp-link" icon={<WhatsAppOutlined />} loading={create.isPending} onClick={createGroup}>
          Create WhatsApp Group
        </Button>
      </>
    );
  } else if (view.status === 'pending' && group) {
    body = view.mine ? (
      <PendingSetup tripId={trip.id} groupName={group.groupName} onCancel={() => remove.mutate(undefined)} cancelling={remove.isPending} />
    ) : (
      <p className="muted">{group.creatorName ?? 'A crew member'} is setting up the WhatsApp group for this trip. Its link will show here.</p>
    );
  } else if (group) {
    body = (
      <>
        <p className="group-name">
          <WhatsAppOutlined /> <strong>{group.groupName}</strong>
          {group.creatorName && <span className="muted"> · created by {group.creatorName}</span>}
        </p>
        {view.expired && <Alert type="warning" showIcon title={WHATSAPP_MESSAGES.endedLink} />}
        {view.status === 'claimable' && (
          <Alert
            type="info"
            showIcon
            title="The crew member who created this group is no longer on this trip. Claim it to look after its link."
            action={
              <Button size="small" loading={claim.isPending} onClick={() => claim.mutate(undefined, { onSuccess: () => toast.success('WhatsApp group claimed') })}>
                Claim Group
              </Button>
            }
          />
        )}
        {group.inviteLink && (
          <div className="group-actions">
            <Button type="primary" className="whatsapp-link" icon={<WhatsAppOutlined />} href={group.inviteLink} target="_blank" rel="noreferrer">
              Join Group
            </Button>
            <Button icon={<QrcodeOutlined />} onClick={() => setShowQr(true)}>
              QR Code
            </Button>
            {view.mine && (
              <Button danger icon={<DeleteOutlined />} loading={remove.isPending} onClick={() => void deleteGroup()}>
                Delete Group
              </Button>
            )}
          </div>
        )}
        {showQr && group.inviteLink && (
          <GroupLinkDialog
            title={group.groupName}
            link={group.inviteLink}
            intro="Scan with a phone's camera to join the crew's WhatsApp group."
            onClose={() => setShowQr(false)}
          />
        )}
      </>
    );
  }

  return (
    <section className="group-section" aria-label="WhatsApp group">
      <h3>WhatsApp Group</h3>
      {body}
    </section>
  );
}

/** The creator's steps: copy the name, create the group in WhatsApp, paste its invite link. */
function PendingSetup({ tripId, groupName, onCancel, cancelling }: { tripId: string; groupName: string; onCancel: () => void; cancelling: boolean }) {
  const setLink = useSetWhatsAppGroupLink(tripId);
  const [link, setLinkText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const save = () => {
    const local = inviteLinkProblem(link);
    setProblem(local);
    if (local) return;
    setLink.mutate(link.trim(), {
      onSuccess: () => toast.success('WhatsApp group is ready', 'The crew can now join with its link.'),
      onError: (error) => setProblem(errorMessage(error) || WHATSAPP_MESSAGES.linkInvalid),
    });
  };

  return (
    <ol className="group-steps">
      <li>
        Copy the group name:{' '}
        <Button size="small" icon={<CopyOutlined />} onClick={() => void copyText(groupName, 'Group name copied')} aria-label={`Copy group name ${groupName}`}>
          {groupName}
        </Button>
      </li>
      <li>In WhatsApp, create a group with that name and open Invite via link.</li>
      <li>
        <label htmlFor={`invite-${tripId}`}>Paste the group's invite link:</label>
        <Input
          id={`invite-${tripId}`}
          value={link}
          placeholder="https://chat.whatsapp.com/..."
          status={problem ? 'error' : undefined}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `invite-${tripId}-error` : undefined}
          onChange={(event) => {
            setLinkText(event.target.value);
            setProblem(null);
          }}
          onPressEnter={save}
        />
        {problem && (
          <div id={`invite-${tripId}-error`} className="field-error" role="alert">
            {problem}
          </div>
        )}
        <div className="group-actions">
          <Button type="primary" loading={setLink.isPending} onClick={save}>
            Save Link
          </Button>
          <Button loading={cancelling} onClick={onCancel}>
            Cancel Group
          </Button>
        </div>
      </li>
    </ol>
  );
}
