import type { CrewLink, CrewLinkBody, CrewLinkCategory } from '@crewswap/proto';
import { CREW_LINK_LIMITS as LIMITS, CREW_LINK_MESSAGES as MESSAGES, checkCoordinates, checkDestinations, isWebAddress } from '@crewswap/proto/browser';

export interface CrewLinkFormValues {
  title: string;
  category: CrewLinkCategory | '';
  description: string;
  discountDetails: string;
  destinations: string;
  website: string;
  locationName: string;
  locationCoordinates: string;
  contactInfo: string;
  isActive: boolean;
}

export const EMPTY_CREW_LINK_FORM: CrewLinkFormValues = {
  title: '',
  category: '',
  description: '',
  discountDetails: '',
  destinations: '',
  website: '',
  locationName: '',
  locationCoordinates: '',
  contactInfo: '',
  isActive: true,
};

export function formFromLink(link: CrewLink): CrewLinkFormValues {
  return {
    title: link.title,
    category: link.category,
    description: link.description,
    discountDetails: link.discountDetails ?? '',
    destinations: link.destinations,
    website: link.website ?? '',
    locationName: link.locationName ?? '',
    locationCoordinates: link.locationCoordinates ?? '',
    contactInfo: link.contactInfo ?? '',
    isActive: link.isActive,
  };
}

export type FormErrors = Partial<Record<keyof CrewLinkFormValues, string>>;

/** The server's rules, checked as the pilot submits, with the server's words. */
export function validateCrewLink(values: CrewLinkFormValues): FormErrors {
  const errors: FormErrors = {};
  if (values.title.trim() === '') errors.title = MESSAGES.titleRequired;
  if (values.category === '') errors.category = MESSAGES.categoryRequired;
  if (values.description.trim() === '') errors.description = MESSAGES.descriptionRequired;
  const destinations = checkDestinations(values.destinations);
  if (!destinations.ok) errors.destinations = destinations.message;
  if (values.website.trim() !== '' && !isWebAddress(values.website)) errors.website = MESSAGES.website;
  if (values.locationCoordinates.trim() !== '' && !checkCoordinates(values.locationCoordinates)) errors.locationCoordinates = MESSAGES.coordinates;
  const bounded: [keyof CrewLinkFormValues, string, number][] = [
    ['title', 'Title', LIMITS.title],
    ['description', 'Description', LIMITS.description],
    ['discountDetails', 'Discount details', LIMITS.discountDetails],
    ['destinations', 'Destinations', LIMITS.destinations],
    ['website', 'Website', LIMITS.website],
    ['locationName', 'Location name', LIMITS.locationName],
    ['locationCoordinates', 'Location coordinates', LIMITS.locationCoordinates],
    ['contactInfo', 'Contact info', LIMITS.contactInfo],
  ];
  for (const [field, label, max] of bounded) {
    const value = values[field];
    if (typeof value === 'string' && value.length > max) errors[field] ??= MESSAGES.tooLong(label, max);
  }
  return errors;
}

/** The body the server takes; blank optional fields go as null. */
export function bodyFromForm(values: CrewLinkFormValues): CrewLinkBody {
  const optional = (value: string) => (value.trim() === '' ? null : value);
  return {
    title: values.title,
    category: values.category as CrewLinkCategory,
    description: values.description,
    discountDetails: optional(values.discountDetails),
    destinations: values.destinations,
    website: optional(values.website.trim()),
    locationName: optional(values.locationName),
    locationCoordinates: optional(values.locationCoordinates),
    contactInfo: optional(values.contactInfo),
    isActive: values.isActive,
  };
}

/** 'Pilot {id}' when the directory has no name for the last editor (spec section 3). */
export function editorName(link: Pick<CrewLink, 'lastEditedBy' | 'lastEditedByName'>): string {
  return link.lastEditedByName ?? `Pilot ${link.lastEditedBy}`;
}
