import { Col, Form, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { zCountryId, type TArea, type TProxyCategory } from '@proxy/contract';
import { zodRule } from '../../lib/form-rules';
import { getLanguage } from '../../lib/i18n';
import { useAreaCities } from './area-cities';
import { useAreaCountries } from './area-countries';
import { useAreaStates } from './area-states';

type TAreaOption = { value: string; label: string; name: string; search: string };

/** Options of one level: "name (N available)" in the list, the name alone in the field; searchable by code and both names. */
function toOptions(areas: TArea[] | undefined, t: (key: string, options?: Record<string, unknown>) => string): TAreaOption[] {
  const lang = getLanguage();
  return (areas ?? []).map((area) => {
    const name = (lang === 'zh' ? area.name_zh : area.name_en) || area.name || area.id.toUpperCase();
    return { value: area.id, label: t('areas.option', { name, count: area.available }), name, search: `${area.id} ${area.name_zh} ${area.name_en}`.toLowerCase() };
  });
}

function matches(input: string, option?: TAreaOption): boolean {
  return Boolean(option?.search.includes(input.trim().toLowerCase()));
}

/** Shows the chosen area's name in the field (the available count is for choosing). */
function nameOf(options: TAreaOption[]) {
  return (props: { value?: string | number; label?: unknown }) => options.find((option) => option.value === props.value)?.name ?? String(props.value ?? '');
}

/**
 * Country -> state -> city of a form (fields country_id, state_id, city_id),
 * from the area lists of a category; state and city narrow the country ("any"
 * when left empty) and changing a level clears the ones below. Used by the
 * purchase form (country required, spec section 5) and the endpoint generator.
 */
export function AreaPicker(props: { category: TProxyCategory; isCountryRequired?: boolean; disabled?: boolean }) {
  const { category, isCountryRequired = false, disabled = false } = props;
  const { t } = useTranslation('common');
  const form = Form.useFormInstance();
  const countryId = Form.useWatch<string | undefined>('country_id', form);
  const stateId = Form.useWatch<string | undefined>('state_id', form);
  const countries = useAreaCountries(category, { isEnabled: !disabled });
  const states = useAreaStates(category, countryId);
  const cities = useAreaCities(category, countryId, stateId);
  const countryOptions = toOptions(countries.data, t);
  const stateOptions = toOptions(states.data, t);
  const cityOptions = toOptions(cities.data, t);
  const shared = { showSearch: { filterOption: matches }, popupMatchSelectWidth: 260 };

  return (
    <Row gutter={12}>
      <Col xs={24} sm={8}>
        <Form.Item name="country_id" label={t('areas.country')} required={isCountryRequired} rules={isCountryRequired ? [zodRule(zCountryId)] : []}>
          <Select<string, TAreaOption>
            {...shared}
            allowClear={!isCountryRequired}
            disabled={disabled}
            placeholder={isCountryRequired ? t('areas.countryPlaceholder') : undefined}
            loading={countries.isFetching}
            options={countryOptions}
            labelRender={nameOf(countryOptions)}
            notFoundContent={countries.isError ? t('areas.fetchCountries') : undefined}
            onChange={() => form.setFieldsValue({ state_id: undefined, city_id: undefined })}
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={8}>
        <Form.Item name="state_id" label={t('areas.state')}>
          <Select<string, TAreaOption>
            {...shared}
            allowClear
            disabled={disabled || !countryId}
            placeholder={t('areas.anyState')}
            loading={states.isFetching}
            options={stateOptions}
            labelRender={nameOf(stateOptions)}
            notFoundContent={states.isError ? t('areas.fetchStates') : undefined}
            onChange={() => form.setFieldsValue({ city_id: undefined })}
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={8}>
        <Form.Item name="city_id" label={t('areas.city')}>
          <Select<string, TAreaOption>
            {...shared}
            allowClear
            disabled={disabled || !stateId}
            placeholder={t('areas.anyCity')}
            loading={cities.isFetching}
            options={cityOptions}
            labelRender={nameOf(cityOptions)}
            notFoundContent={cities.isError ? t('areas.fetchCities') : undefined}
          />
        </Form.Item>
      </Col>
    </Row>
  );
}
