// Clinic CRUD journey on the open instance (9966), modelled on upstream PetClinic's JMeter CRUD
// benchmark: create an owner, add a pet, add a visit, read, update, delete.
import { check, group, sleep } from 'k6';
import { clinicClient, createdId } from '../../lib/clinic.js';
import { clinicConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';

const plan: ScenarioPlan = {
  name: 'clinic_crud',
  testType: 'journey',
  suite: 'clinic-crud',
  thresholds: { 'http_req_duration{endpoint:clinic}': ['p(95)<1500'] },
};
const clinic = clinicClient(clinicConfig(__ENV).baseUrl);

export const options = rampingOptions(plan, __ENV);

export default function (): void {
  const ownerId = group('01_create_owner', () =>
    createdId(
      clinic.post(
        '/owners',
        {
          firstName: 'Load',
          lastName: 'Loadtester',
          address: '1 Bench Street',
          city: 'Perfville',
          telephone: '6085551023',
        },
        '/owners',
      ),
      'owner',
    ),
  );
  if (ownerId === undefined) return;
  const petId = group('02_add_pet', () =>
    createdId(
      clinic.post(
        `/owners/${ownerId}/pets`,
        { name: 'Rex', birthDate: '2020-01-15', type: { id: 2, name: 'dog' } },
        '/owners/{ownerId}/pets',
      ),
      'pet',
    ),
  );
  if (petId !== undefined) {
    group('03_add_visit', () => {
      createdId(
        clinic.post(
          `/owners/${ownerId}/pets/${petId}/visits`,
          { date: '2026-11-22', description: 'load test check-up' },
          '/owners/{ownerId}/pets/{petId}/visits',
        ),
        'visit',
      );
    });
  }
  group('04_read_owner', () => {
    const res = clinic.get(`/owners/${ownerId}`, '/owners/{ownerId}');
    check(res, { 'owner read 200': (r) => r.status === 200 });
  });
  group('05_update_owner', () => {
    const res = clinic.put(
      `/owners/${ownerId}`,
      {
        firstName: 'Load',
        lastName: 'Loadtester',
        address: '2 Bench Street',
        city: 'Perfville',
        telephone: '6085551024',
      },
      '/owners/{ownerId}',
    );
    check(res, { 'owner updated 204': (r) => r.status === 204 });
  });
  group('06_delete', () => {
    if (petId !== undefined)
      check(clinic.del(`/pets/${petId}`, '/pets/{petId}'), { 'pet deleted 204': (r) => r.status === 204 });
    check(clinic.del(`/owners/${ownerId}`, '/owners/{ownerId}'), {
      'owner deleted 204': (r) => r.status === 204,
    });
  });
  sleep(0.5);
}

export const handleSummary = summaryHandler(plan, 'clinic-crud');
