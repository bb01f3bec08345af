import { Button, Checkbox, Form, Select } from 'antd';
import { BASE_OPTIONS, FLEET_OPTIONS, RANK_OPTIONS } from './options';

interface Props {
  rank: string | undefined;
  /** Registration shows placeholders; Edit My Details always has values. */
  placeholders?: boolean;
  /** The date each change unlocks, while it is locked (one year after the last change). */
  locks?: { rank?: string | null; fleet?: string | null; ltc?: string | null };
  onLtcInfo: () => void;
}

/** Rank, fleet, base and the APIC (FO) or LTC (CP) flag, as both Register and Edit My Details ask them. */
export function PilotRoleFields({ rank, placeholders = false, locks = {}, onLtcInfo }: Props) {
  const lockText = (date: string | null | undefined) => (date ? `Locked until ${date}` : undefined);
  return (
    <>
      <div className="form-grid three">
        <Form.Item label="Rank" name="rank" extra={lockText(locks.rank)}>
          <Select options={RANK_OPTIONS} placeholder={placeholders ? 'Rank' : undefined} disabled={!!locks.rank} aria-label="Rank" />
        </Form.Item>
        <Form.Item label="Fleet" name="fleet" extra={lockText(locks.fleet)}>
          <Select options={FLEET_OPTIONS} placeholder={placeholders ? 'Fleet' : undefined} disabled={!!locks.fleet} aria-label="Fleet" />
        </Form.Item>
        <Form.Item label="Base" name="base">
          <Select options={BASE_OPTIONS} placeholder={placeholders ? 'Base' : undefined} aria-label="Base" />
        </Form.Item>
      </div>
      {rank === 'FO' && (
        <Form.Item name="apic" valuePropName="checked">
          <Checkbox>APIC</Checkbox>
        </Form.Item>
      )}
      {rank === 'CP' && (
        <div className="inline-row">
          <Form.Item name="ltc" valuePropName="checked" noStyle>
            <Checkbox disabled={!!locks.ltc}>Trainer (LTC)</Checkbox>
          </Form.Item>
          <Button type="link" onClick={onLtcInfo}>
            What is LTC?
          </Button>
          {locks.ltc && <span className="muted small">Locked until {locks.ltc}</span>}
        </div>
      )}
    </>
  );
}
