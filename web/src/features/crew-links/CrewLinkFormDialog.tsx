import { Alert, Form, Input, Select, Switch } from 'antd';
import { useState, type ChangeEvent } from 'react';
import type { CrewLink } from '@crewswap/proto';
import { CREW_LINK_LIMITS as LIMITS, CREW_LINK_MESSAGES } from '@crewswap/proto/browser';
import { useSaveCrewLink, useSimilarCrewLinks } from '../../api/crewLinks';
import { AppModal, okAction } from '../../shared/AppModal';
import { toast } from '../../shared/toast';
import { useDebounced } from '../../shared/useDebounced';
import { CATEGORY_OPTIONS } from './categories';
import { bodyFromForm, EMPTY_CREW_LINK_FORM, formFromLink, validateCrewLink, type CrewLinkFormValues, type FormErrors } from './crewLinkForm';
import { UnknownAirportDialog } from './UnknownAirportDialog';

type TextField = 'title' | 'description' | 'discountDetails' | 'website' | 'locationName' | 'locationCoordinates' | 'contactInfo';

interface Props {
  /** Absent when adding. */
  link?: CrewLink;
  /** Destinations to start an added link with (the trip the list was opened from). */
  initialDestinations?: string;
  onClose: () => void;
  onSaved: (link: CrewLink) => void;
}

/** Add Crew Link and Edit Crew Link. */
export default function CrewLinkFormDialog({ link, initialDestinations = '', onClose, onSaved }: Props) {
  const [values, setValues] = useState<CrewLinkFormValues>(() =>
    link ? formFromLink(link) : { ...EMPTY_CREW_LINK_FORM, destinations: initialDestinations },
  );
  const [errors, setErrors] = useState<FormErrors>({});
  const [unknownCode, setUnknownCode] = useState<string | null>(null);
  const save = useSaveCrewLink();
  const title = useDebounced(values.title);
  // Only while adding: a similar title hints that the place may be listed already.
  const similar = useSimilarCrewLinks(title, !link);

  const set = (patch: Partial<CrewLinkFormValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key as keyof CrewLinkFormValues];
      return next;
    });
  };

  const submit = () => {
    const found = validateCrewLink(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      { id: link?.id, body: bodyFromForm(values) },
      {
        onSuccess: (result) => {
          if ('unknownCode' in result) {
            setUnknownCode(result.unknownCode);
            return;
          }
          toast.success('Success', link ? CREW_LINK_MESSAGES.updated : CREW_LINK_MESSAGES.added);
          onSaved(result.saved);
        },
      },
    );
  };

  const field = (name: keyof CrewLinkFormValues) => ({
    validateStatus: errors[name] ? ('error' as const) : undefined,
    help: errors[name],
  });

  /** A free-text field's value, limit and change handler. */
  const text = (name: TextField) => ({
    value: values[name],
    maxLength: LIMITS[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set({ [name]: event.target.value }),
  });

  return (
    <>
      <AppModal title={link ? 'Edit Crew Link' : 'Add Crew Link'} onCancel={onClose} {...okAction(link ? 'Update' : 'Add', submit, save)} width={640}>
        <Form layout="vertical" component="div" className="crew-link-form">
          <Form.Item label="Title" htmlFor="crew-link-title" required {...field('title')}>
            <Input id="crew-link-title" {...text('title')} />
          </Form.Item>
          {similar.data && similar.data.length > 0 && (
            <Alert
              className="similar-links"
              type="info"
              showIcon
              title="Similar entries already shared"
              description={
                <ul>
                  {similar.data.map((item) => (
                    <li key={item.id}>
                      {item.title} <span className="muted">({item.destinations})</span>
                    </li>
                  ))}
                </ul>
              }
            />
          )}
          <div className="form-grid">
            <Form.Item label="Category" htmlFor="crew-link-category" required {...field('category')}>
              <Select
                id="crew-link-category"
                placeholder="Choose a category"
                value={values.category || undefined}
                options={CATEGORY_OPTIONS}
                showSearch={{ optionFilterProp: 'title' }}
                onChange={(category) => set({ category })}
              />
            </Form.Item>
            <Form.Item label="Destinations" htmlFor="crew-link-destinations" {...field('destinations')} extra={errors.destinations ? undefined : 'ALL, or airport codes like JFK, LAX'}>
              <Input
                id="crew-link-destinations"
                placeholder="ALL"
                value={values.destinations}
                maxLength={LIMITS.destinations}
                onChange={(event) => set({ destinations: event.target.value.toUpperCase() })}
              />
            </Form.Item>
          </div>
          <Form.Item label="Description" htmlFor="crew-link-description" required {...field('description')}>
            <Input.TextArea id="crew-link-description" autoSize={{ minRows: 3, maxRows: 8 }} {...text('description')} />
          </Form.Item>
          <Form.Item label="Discount details" htmlFor="crew-link-discount" {...field('discountDetails')}>
            <Input.TextArea id="crew-link-discount" autoSize={{ minRows: 1, maxRows: 4 }} {...text('discountDetails')} />
          </Form.Item>
          <Form.Item label="Website" htmlFor="crew-link-website" {...field('website')}>
            <Input id="crew-link-website" type="url" inputMode="url" placeholder="https://" {...text('website')} />
          </Form.Item>
          <div className="form-grid">
            <Form.Item label="Location name" htmlFor="crew-link-location" {...field('locationName')}>
              <Input id="crew-link-location" {...text('locationName')} />
            </Form.Item>
            <Form.Item label="Address or lat,long" htmlFor="crew-link-coordinates" {...field('locationCoordinates')}>
              <Input id="crew-link-coordinates" placeholder="40.6413,-73.7781" {...text('locationCoordinates')} />
            </Form.Item>
          </div>
          <Form.Item label="Contact info" htmlFor="crew-link-contact" {...field('contactInfo')}>
            <Input id="crew-link-contact" {...text('contactInfo')} />
          </Form.Item>
          <Form.Item label="Active" htmlFor="crew-link-active">
            <Switch id="crew-link-active" checked={values.isActive} onChange={(isActive) => set({ isActive })} />
          </Form.Item>
        </Form>
      </AppModal>
      {unknownCode && (
        <UnknownAirportDialog
          code={unknownCode}
          onClose={() => setUnknownCode(null)}
          onAdded={() => {
            setUnknownCode(null);
            // The code is in the list now: save again, as the pilot asked in the first place.
            submit();
          }}
        />
      )}
    </>
  );
}
