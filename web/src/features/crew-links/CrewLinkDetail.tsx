import { DeleteOutlined, EditOutlined, EnvironmentOutlined, GlobalOutlined } from '@ant-design/icons';
import { Button, Descriptions, Tag } from 'antd';
import { useState } from 'react';
import type { CrewLink } from '@crewswap/proto';
import { mapLink } from '@crewswap/proto/browser';
import { useCrewLink, useDeleteCrewLink } from '../../api/crewLinks';
import { AppModal, okAction } from '../../shared/AppModal';
import { toast } from '../../shared/toast';
import { CategoryIcon, categoryLabel } from './categories';
import { editorName } from './crewLinkForm';
import { LikeButton } from './LikeButton';

const editedAt = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/London' });

/** One crew link in full, with a map link for its place; Edit and Delete for every pilot. */
export function CrewLinkDetail({ id, onClose, onEdit }: { id: string; onClose: () => void; onEdit: (link: CrewLink) => void }) {
  const query = useCrewLink(id);
  const remove = useDeleteCrewLink();
  const [confirming, setConfirming] = useState(false);
  const link = query.data;
  if (!link) return null;
  const map = mapLink(link);

  const deleteLink = () =>
    remove.mutate(link, {
      onSuccess: () => {
        toast.success('Crew Link Deleted', `${link.title} has been deleted.`);
        onClose();
      },
      onSettled: () => setConfirming(false),
    });

  return (
    <>
      <AppModal
        title={
          <span className="crew-link-detail-title">
            <CategoryIcon category={link.category} /> {link.title}
          </span>
        }
        onCancel={onClose}
        cancelText="Close"
        onOk={() => onEdit(link)}
        okText="Edit"
        okButtonProps={{ icon: <EditOutlined /> }}
        start={
          <Button danger icon={<DeleteOutlined />} onClick={() => setConfirming(true)}>
            Delete
          </Button>
        }
        extra={<LikeButton link={link} />}
        classNames={{ footer: 'crew-link-detail-actions' }}
        width={640}
      >
        <div className="crew-link-detail">
          <div className="crew-link-tags">
            <Tag>{categoryLabel(link.category)}</Tag>
            <Tag color="purple">{link.destinations}</Tag>
            {!link.isActive && <Tag color="default">Inactive</Tag>}
          </div>
          <p className="crew-link-text">{link.description}</p>
          <Descriptions column={1} size="small" bordered>
            {link.discountDetails && <Descriptions.Item label="Discount">{link.discountDetails}</Descriptions.Item>}
            {link.website && (
              <Descriptions.Item label="Website">
                <a href={link.website} target="_blank" rel="noopener noreferrer">
                  <GlobalOutlined /> {link.website}
                </a>
              </Descriptions.Item>
            )}
            {(link.locationName || link.locationCoordinates) && (
              <Descriptions.Item label="Location">
                <div>{link.locationName}</div>
                {link.locationCoordinates && <div className="muted">{link.locationCoordinates}</div>}
                {map && (
                  <a href={map} target="_blank" rel="noopener noreferrer" className="map-link">
                    <EnvironmentOutlined /> Open in Maps
                  </a>
                )}
              </Descriptions.Item>
            )}
            {link.contactInfo && <Descriptions.Item label="Contact">{link.contactInfo}</Descriptions.Item>}
          </Descriptions>
          <p className="muted small">
            Last edited by {editorName(link)} on {editedAt(link.lastEditedAt)}
          </p>
        </div>
      </AppModal>
      {confirming && (
        <AppModal
          title="Delete Crew Link"
          onCancel={() => setConfirming(false)}
          {...okAction('Delete', deleteLink, remove)}
          okButtonProps={{ danger: true }}
        >
          <p>
            Delete <strong>{link.title}</strong> for every pilot? This cannot be undone.
          </p>
        </AppModal>
      )}
    </>
  );
}
