import { describe, expect, it } from 'vitest';
import { bodyFromForm, editorName, EMPTY_CREW_LINK_FORM, validateCrewLink } from './crewLinkForm';

const valid = { ...EMPTY_CREW_LINK_FORM, title: 'Joe’s Diner', category: 'restaurant' as const, description: 'Breakfast deal' };

describe('Add/Edit Crew Link form rules', () => {
  it('title, category and description are required', () => {
    expect(validateCrewLink(EMPTY_CREW_LINK_FORM)).toEqual({
      title: 'Title is required',
      category: 'Category is required',
      description: 'Description is required',
    });
    expect(validateCrewLink(valid)).toEqual({});
  });

  it("destinations: ALL or 3-letter codes separated by commas or spaces ('Airport codes must be exactly 3 letters')", () => {
    expect(validateCrewLink({ ...valid, destinations: 'jfk, lax sfo' })).toEqual({});
    expect(validateCrewLink({ ...valid, destinations: 'ALL' })).toEqual({});
    expect(validateCrewLink({ ...valid, destinations: 'JFK, LA' }).destinations).toBe('Airport codes must be exactly 3 letters');
    expect(validateCrewLink({ ...valid, destinations: 'ALL JFK' }).destinations).toBe('Destinations are either ALL or airport codes, not both');
  });

  it('website is a URL and coordinates are in range', () => {
    expect(validateCrewLink({ ...valid, website: 'javascript:alert(1)' }).website).toBe('Website must be a web address starting with http:// or https://');
    expect(validateCrewLink({ ...valid, website: 'https://joes.example.com' })).toEqual({});
    expect(validateCrewLink({ ...valid, locationCoordinates: '91,0' }).locationCoordinates).toMatch(/^Coordinates must be/);
    expect(validateCrewLink({ ...valid, locationCoordinates: '12 Main St, Queens' })).toEqual({});
  });

  it('blank optional fields are sent as null; lastEditedBy is never sent', () => {
    const body = bodyFromForm({ ...valid, website: '  ' });
    expect(body).toMatchObject({ website: null, discountDetails: null, destinations: '' });
    expect(body).not.toHaveProperty('lastEditedBy');
  });

  it("the last editor shows as 'Pilot {id}' when no name is known", () => {
    expect(editorName({ lastEditedBy: 'abc', lastEditedByName: null })).toBe('Pilot abc');
    expect(editorName({ lastEditedBy: 'abc', lastEditedByName: 'Amy Stone' })).toBe('Amy Stone');
  });
});
