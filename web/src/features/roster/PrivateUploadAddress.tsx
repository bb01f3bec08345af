import { Button, Popconfirm, Typography } from 'antd';
import { errorMessage } from '../../api/client';
import { useReplaceUploadAddress, useUploadAddress } from '../../api/roster';

/**
 * The pilot's own upload address, copyable, with a way to replace it. Shown in the upload dialog
 * and on the empty trips page; nothing is shown until it has loaded (or when it cannot be).
 */
export function PrivateUploadAddress() {
  const address = useUploadAddress();
  const replace = useReplaceUploadAddress();
  if (!address.data) return null;
  return (
    <div className="private-upload-address" aria-label="Your private upload address">
      <div>Or send it from any email account to your private upload address:</div>
      <Typography.Text copyable={{ text: address.data, tooltips: ['Copy address', 'Copied'] }} strong>
        {address.data}
      </Typography.Text>{' '}
      <Popconfirm
        title="Replace your private upload address?"
        description="The current address stops working at once."
        okText="Replace"
        cancelText="Cancel"
        onConfirm={() => replace.mutateAsync()}
      >
        <Button size="small" type="link" loading={replace.isPending}>
          New address
        </Button>
      </Popconfirm>
      {replace.isError && <Typography.Text type="danger">{errorMessage(replace.error)}</Typography.Text>}
      <Typography.Paragraph type="secondary">Keep it to yourself: anything sent to it is imported as your roster.</Typography.Paragraph>
    </div>
  );
}
